import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The worker's compiled entry. Worker threads run JavaScript only, so when this module itself runs from
 * TypeScript sources (tests), the worker comes from the build in `dist/` next to `src/`.
 */
export function workerScript(): URL {
  const sibling = new URL("./convert-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(sibling))) return sibling;
  const built = fileURLToPath(sibling).replace(/([\\/])src([\\/]parallel[\\/]convert-worker\.js)$/, "$1dist$2");
  if (!existsSync(built)) throw new Error(`Cannot find the parallel engine's worker at ${fileURLToPath(sibling)} or ${built}: run \`npm run build\``);
  return pathToFileURL(built);
}
