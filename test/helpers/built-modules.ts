import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A private folder where a script run by a child process can import the built modules (`./sinks/...`):
 * vitest transforms TypeScript only in its own process. `npm test` builds dist/ first.
 */
export function linkBuiltModules(lib: string): string {
  const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
  if (!existsSync(join(dist, "index.js"))) throw new Error("dist/ is missing: run npm run build (npm test does) before this test");
  mkdirSync(lib, { recursive: true });
  for (const entry of readdirSync(dist)) if (!existsSync(join(lib, entry))) symlinkSync(join(dist, entry), join(lib, entry));
  writeFileSync(join(lib, "package.json"), '{"type":"module"}');
  return lib;
}
