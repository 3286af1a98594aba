import { copyFile, link, mkdir, readdir, readFile, readlink, rename, rm, stat, symlink, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { IoError } from "../core/errors.js";
import { writeStep } from "../core/write-step.js";
import { ioStep } from "./io-step.js";
import { OLD_PREFIX } from "./local-journal.js";
import { exists, syncDir, syncTree } from "./local-sync.js";
import type { PublishHook } from "./storage.js";

/**
 * A local dataset's published versions (issue 20): each publish is an immutable folder
 * `.evalshard-snapshots/<id>/`; `.evalshard-current` is a symbolic link to the current one; every top-level
 * entry (`data`, `README.md`, `manifest.json`, …) is a link `NAME -> .evalshard-current/NAME`. Readers open
 * `DIR/data/…` and `DIR/manifest.json` as before, and one rename of `.evalshard-current` switches all of them
 * at once: a reader, or a job killed at any step, sees the whole old version or the whole new one.
 */
export const SNAPSHOTS_DIR = ".evalshard-snapshots";
export const CURRENT = ".evalshard-current";
const ENTRIES_FILE = ".evalshard-entries.json";
/** Moved aside first and linked last when a dataset of the layout before snapshots is converted. */
const COMMIT_ENTRY = "manifest.json";

/** The current snapshot's id; null for a directory never published in this layout. */
export async function currentSnapshot(outDir: string): Promise<string | null> {
  const target = await readlink(join(outDir, CURRENT)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw new IoError(`Cannot read ${join(outDir, CURRENT)}: ${error.message}`, outDir, { cause: error });
  });
  if (target === null) return null;
  if (!target.startsWith(`${SNAPSHOTS_DIR}/`)) throw new IoError(`${join(outDir, CURRENT)} points at ${JSON.stringify(target)}, not a snapshot evalshard wrote; inspect the output directory by hand`, outDir);
  return target.slice(SNAPSHOTS_DIR.length + 1);
}

/**
 * Publishes the staged `names` of `stagingDir` as snapshot `id`: moves them into its folder, carries over
 * (hard links) the current snapshot's entries not listed, links new names, then switches `.evalshard-current`
 * (the commit) and finishes ({@link finishSnapshot}). Calls `step` after each step.
 */
export async function publishSnapshot(outDir: string, stagingDir: string, id: string, names: readonly string[], step: PublishHook): Promise<void> {
  const folder = join(outDir, SNAPSHOTS_DIR, id);
  await ioStep(folder, "create the snapshot folder", () => mkdir(folder, { recursive: true }));
  const previous = await currentSnapshot(outDir);
  const present: string[] = [];
  for (const name of names) {
    if (!(await exists(join(stagingDir, name)))) continue;
    await ioStep(join(folder, name), "move into the snapshot", () => rename(join(stagingDir, name), join(folder, name)));
    present.push(name);
    await step(`in:${name}`);
  }
  // Entries this publish does not replace carry over, so every snapshot folder stands alone.
  if (previous !== null) {
    for (const name of (await entriesOf(outDir, previous)).entries) {
      if (names.includes(name)) continue;
      await linkTree(join(outDir, SNAPSHOTS_DIR, previous, name), join(folder, name));
      present.push(name);
    }
  }
  const record: SnapshotEntries = { entries: present, listed: [...names] };
  await writeStep(join(folder, ENTRIES_FILE), "write the snapshot's entries to", () => writeFile(join(folder, ENTRIES_FILE), JSON.stringify(record)));
  await syncTree(folder);
  await syncDir(join(outDir, SNAPSHOTS_DIR));
  await step("snapshot");
  // A name new to the dataset gets its link now: dangling, so absent for readers, until the switch.
  for (const name of present) if (!(await exists(join(outDir, name)))) await ioStep(join(outDir, name), "link", () => symlink(`${CURRENT}/${name}`, join(outDir, name)));
  await step("linked");
  const temp = join(outDir, `${CURRENT}.tmp-${id}`);
  await ioStep(temp, "switch to the new snapshot", async () => {
    await rm(temp, { force: true });
    await symlink(`${SNAPSHOTS_DIR}/${id}`, temp);
    await rename(temp, join(outDir, CURRENT));
  });
  await syncDir(outDir);
  await step("switched");
  await finishSnapshot(outDir, step);
}

/**
 * Idempotent, after the switch (by the publish, or by the next job's recovery): a real entry where a link
 * belongs, or one the publish listed for removal (a dataset of the layout before snapshots), is moved aside
 * (the manifest first), links are made (the manifest last); evalshard's links to entries the current
 * snapshot lacks, and snapshot folders other than the current one (the replaced version, dead runs'), go.
 */
export async function finishSnapshot(outDir: string, step: PublishHook): Promise<void> {
  const id = await currentSnapshot(outDir);
  for (const other of await readdir(join(outDir, SNAPSHOTS_DIR)).catch(() => [])) {
    if (other !== id) await ioStep(join(outDir, SNAPSHOTS_DIR, other), "delete the replaced snapshot", () => rm(join(outDir, SNAPSHOTS_DIR, other), { recursive: true, force: true }));
  }
  const { entries, listed } = id === null ? { entries: [], listed: [] } : await entriesOf(outDir, id);
  for (const name of await readdir(outDir)) {
    // A link to an entry the current version lacks: dangling, made before a switch that did not happen, or the replaced version's.
    if (!entries.includes(name) && (await isLink(join(outDir, name), name))) await unlink(join(outDir, name));
  }
  if (id === null) return;
  const old = join(outDir, `${OLD_PREFIX}${id}`);
  const manifestLast = [...entries].sort((a, b) => Number(a === COMMIT_ENTRY) - Number(b === COMMIT_ENTRY));
  const manifestFirst = [...manifestLast].reverse();
  for (const name of [...manifestFirst, ...listed.filter((n) => !entries.includes(n))]) {
    const path = join(outDir, name);
    if ((await exists(path)) && !(await isLink(path, name))) {
      await ioStep(old, "create the directory for replaced entries", () => mkdir(old, { recursive: true }));
      await ioStep(path, "move aside", () => rename(path, join(old, name)));
    }
  }
  for (const name of manifestLast) if (!(await exists(join(outDir, name)))) await ioStep(join(outDir, name), "link", () => symlink(`${CURRENT}/${name}`, join(outDir, name)));
  await syncDir(outDir);
  await ioStep(old, "delete the replaced output", () => rm(old, { recursive: true, force: true }));
  await step("cleaned");
}

/** The top-level names a snapshot holds, and those its publish listed (replaced or removed). */
interface SnapshotEntries {
  readonly entries: readonly string[];
  readonly listed: readonly string[];
}

async function entriesOf(outDir: string, id: string): Promise<SnapshotEntries> {
  const path = join(outDir, SNAPSHOTS_DIR, id, ENTRIES_FILE);
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new IoError(`Cannot read ${path}: ${error.message}`, path, { cause: error });
  });
  const names = (list: unknown): list is string[] => Array.isArray(list) && list.every((e) => typeof e === "string" && e !== "" && !/[/\\]/.test(e) && !e.startsWith("."));
  const record = JSON.parse(text) as Partial<SnapshotEntries>;
  if (!names(record.entries) || !names(record.listed)) throw new IoError(`${path} is not one evalshard wrote; inspect the output directory by hand`, path);
  return { entries: record.entries, listed: record.listed };
}

/** Whether `path` is evalshard's link of the entry `name`. */
async function isLink(path: string, name: string): Promise<boolean> {
  return (await readlink(path).catch(() => null)) === `${CURRENT}/${name}`;
}

/**
 * Copies a tree as hard links (a copy where links fail): the bytes are shared, never rewritten. Symbolic links
 * are followed: a dataset's top-level entries are links into its current snapshot folder.
 */
export async function linkTree(from: string, to: string): Promise<void> {
  if ((await stat(from)).isDirectory()) {
    await mkdir(to, { recursive: true });
    for (const name of await readdir(from)) await linkTree(join(from, name), join(to, name));
    return;
  }
  await mkdir(dirname(to), { recursive: true });
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "EXDEV" && code !== "ENOTSUP" && code !== "EMLINK") {
      throw new IoError(`Cannot link ${from} into ${to}: ${(error as Error).message}`, from, { cause: error });
    }
    await copyFile(from, to);
  }
}
