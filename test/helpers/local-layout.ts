import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import { CURRENT, SNAPSHOTS_DIR } from "../../src/output/local-snapshots.js";

/**
 * What evalshard left in a local dataset beyond its layout (issue 20): any `.evalshard*` entry other than
 * the current-snapshot link and the snapshots folder, and any snapshot folder other than the current one.
 */
export function evalshardLeftovers(dir: string): string[] {
  const names = readdirSync(dir).filter((n) => n.startsWith(".evalshard") && n !== CURRENT && n !== SNAPSHOTS_DIR);
  if (!existsSync(join(dir, SNAPSHOTS_DIR))) return names;
  const current = existsSync(join(dir, CURRENT)) ? readlinkSync(join(dir, CURRENT)).slice(SNAPSHOTS_DIR.length + 1) : null;
  return [...names, ...readdirSync(join(dir, SNAPSHOTS_DIR)).filter((n) => n !== current).map((n) => `${SNAPSHOTS_DIR}/${n}`)];
}

/** The entries a reader of the dataset sees: every top-level name but evalshard's hidden layout. */
export function visibleEntries(dir: string): string[] {
  return readdirSync(dir).filter((n) => n !== CURRENT && n !== SNAPSHOTS_DIR).sort();
}

/** Every file a reader of the dataset opens (links followed; `_rejected/` and evalshard's hidden entries aside), with its sha256. */
export function readerFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel === "" ? name : `${rel}/${name}`;
      if (path === "_rejected" || (rel === "" && name.startsWith(".evalshard"))) continue;
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else out[path] = createHash("sha256").update(readFileSync(join(dir, path))).digest("hex");
    }
  };
  walk("");
  return out;
}
