import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The worker's compiled entry: the bundled CommonJS one when the build made it (its loader starts faster
 * than the ESM one), else tsc's module. Worker threads run JavaScript only, so when this module itself runs
 * from TypeScript sources (tests), the worker comes from the build in `dist/` next to `src/`.
 */
export function workerScript(): URL {
  for (const name of ["./convert-worker.cjs", "./convert-worker.js"]) {
    const sibling = fileURLToPath(new URL(name, import.meta.url));
    const built = sibling.replace(/([\\/])src([\\/]engines[\\/]parallel[\\/]run[\\/]convert-worker\.c?js)$/, "$1dist$2");
    for (const path of [sibling, built]) if (existsSync(path)) return pathToFileURL(path);
  }
  throw new Error(`Cannot find the parallel engine's worker next to ${fileURLToPath(import.meta.url)} or in dist/: run \`npm run build\``);
}
