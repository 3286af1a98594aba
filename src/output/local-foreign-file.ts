import { lstat, readdir, readlink } from "node:fs/promises";
import { join } from "node:path";
import { isEvalshardOwn } from "./evalshard-own.js";
import { ioStepOr } from "../core/io-step.js";
import { CURRENT } from "./local-snapshots.js";

/** Folders whose children are judged one by one: evalshard's only while every child is its own. */
const JUDGED_BY_CHILDREN = new Set(["_rejected", "snapshots"]);

/**
 * The first entry of the local output `dir` that evalshard did not write ({@link isEvalshardOwn}), as a path
 * relative to it; null for a missing or empty directory, or a dataset of evalshard's own.
 */
export async function localForeignFile(dir: string): Promise<string | null> {
  const names = await listed(dir);
  if (names === null) return null;
  // Locally, only a link into .evalshard-current marks a published entry; a real file never is one.
  const published = names.includes(CURRENT) ? [] : null;
  for (const name of names.sort()) {
    const path = join(dir, name);
    const info = await lstat(path).catch(() => null);
    if (info === null) continue; // gone meanwhile: a job's own temporary entry
    const link = info.isSymbolicLink() ? await readlink(path) : null;
    const children = link === null && info.isDirectory() && JUDGED_BY_CHILDREN.has(name) ? await listed(path) : null;
    // An empty one holds nothing a publish could take from anyone.
    const paths = children === null ? [name] : children.sort().map((child) => `${name}/${child}`);
    const foreign = paths.find((p) => !isEvalshardOwn(p, { link, published }));
    if (foreign !== undefined) return foreign;
  }
  return null;
}

/** The names in `dir`; null where there is no such directory. */
async function listed(dir: string): Promise<string[] | null> {
  return ioStepOr(dir, "list", null, () => readdir(dir));
}
