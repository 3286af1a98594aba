import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/**
 * Whether `file` imports one of `targets` (absolute paths), itself or through the modules it imports relatively:
 * how the sequencer tells which test files will wait for a set-up phase, without a list to keep up to date.
 */
export function importsAny(file: string, targets: readonly string[], seen = new Set<string>()): boolean {
  if (seen.has(file) || !existsSync(file)) return false;
  seen.add(file);
  for (const [, specifier] of readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)) {
    const js = resolve(dirname(file), specifier ?? "");
    const imported = js.endsWith(".js") && existsSync(`${js.slice(0, -3)}.ts`) ? `${js.slice(0, -3)}.ts` : js;
    if (targets.includes(imported) || importsAny(imported, targets, seen)) return true;
  }
  return false;
}
