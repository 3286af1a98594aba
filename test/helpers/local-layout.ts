import { existsSync, readdirSync, readlinkSync } from "node:fs";
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
