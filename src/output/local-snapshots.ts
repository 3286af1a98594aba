import { copyFile, link, mkdir, readdir, readFile, readlink, rename, rm, stat, symlink, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { IoError } from "../core/errors.js";
import { ioStep, ioStepOr } from "../core/io-step.js";
import { LocalFileWriter } from "./local-file-writer.js";
import { OLD_PREFIX } from "./local-journal.js";
import { syncDir, syncFile, syncFolders } from "./local-sync.js";
import type { PendingFlushes } from "./pending-flushes.js";
import { publishOrder } from "./publish-order.js";
import { writeText } from "./write-text.js";
import type { Fence, PublishHook } from "./storage.js";

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
/** The new `.evalshard-current`, made inside the staging: a job whose staging another job deleted cannot switch. */
const NEXT_CURRENT = ".evalshard-current.next";
const unfenced: Fence = async () => undefined;

/** The current snapshot's id; null for a directory never published in this layout. */
export async function currentSnapshot(outDir: string): Promise<string | null> {
  const target = await ioStepOr(join(outDir, CURRENT), "read", null, () => readlink(join(outDir, CURRENT)));
  if (target === null) return null;
  if (!target.startsWith(`${SNAPSHOTS_DIR}/`)) throw new IoError(`${join(outDir, CURRENT)} points at ${JSON.stringify(target)}, not a snapshot evalshard wrote; inspect the output directory by hand`, outDir);
  return target.slice(SNAPSHOTS_DIR.length + 1);
}

/** How long the snapshot a publish replaces stays readable after the switch, and how the publish waits. */
export interface SnapshotGrace {
  readonly graceMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * Publishes the staged `names` of `stagingDir` as snapshot `id`: moves them into its folder, carries over
 * (hard links) the current snapshot's entries not listed, links new names, then switches `.evalshard-current`
 * (the commit) and finishes ({@link finishSnapshot}). Calls `step` after each step. Before the switch, the
 * staged files' `flushes` have settled and the snapshot's folders are synced, so the switch publishes only
 * what is on disk. The replaced snapshot's folder stays for `grace`: a reader that resolved
 * `.evalshard-current` before the switch reads on (issue 40); then it goes, so that a recursive read of the
 * directory (DuckDB's `**`, which enters hidden folders) finds one version again (issue 39). `fence` is
 * awaited right before the links, the switch and the deletes: it throws once this job lost its lock, and the
 * dataset is then left to the job that holds it.
 */
export async function publishSnapshot(outDir: string, stagingDir: string, id: string, names: readonly string[], step: PublishHook, flushes: PendingFlushes, grace: SnapshotGrace, fence: Fence = unfenced): Promise<void> {
  await ownStaging(stagingDir, fence);
  const folder = join(outDir, SNAPSHOTS_DIR, id);
  await ioStep(folder, "create the snapshot folder", () => mkdir(folder, { recursive: true }));
  const previous = await currentSnapshot(outDir);
  const present: string[] = [];
  for (const name of names) {
    // A listed entry the run did not produce is absent from the staging.
    if (!(await ioStepOr(join(folder, name), "move into the snapshot", false, () => rename(join(stagingDir, name), join(folder, name)).then(() => true)))) {
      await ownStaging(stagingDir, fence);
      continue;
    }
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
  await writeText({ create: (path) => LocalFileWriter.create(join(folder, path), flushes) }, ENTRIES_FILE, JSON.stringify(record));
  await Promise.all([flushes.settle(), syncFolders(folder), syncDir(join(outDir, SNAPSHOTS_DIR))]);
  await step("snapshot");
  await fence();
  // A name new to the dataset gets its link now: dangling, so absent for readers, until the switch.
  for (const name of present) await ioStep(join(outDir, name), "link", () => ifAbsent(symlink(`${CURRENT}/${name}`, join(outDir, name))));
  await step("linked");
  await fence();
  // The new link is made in the staging and renamed over the old: if another job deleted the staging (it took
  // the lock over from this one, stalled past its lease), the rename fails and the switch never happens.
  const temp = join(stagingDir, NEXT_CURRENT);
  await ioStep(temp, "switch to the new snapshot", async () => {
    await rm(temp, { force: true });
    await symlink(`${SNAPSHOTS_DIR}/${id}`, temp);
    await rename(temp, join(outDir, CURRENT)).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") await ownStaging(stagingDir, fence);
      throw error;
    });
  });
  await syncDir(outDir);
  await step("switched");
  await finishSnapshot(outDir, step, { id, record }, previous, fence);
  if (previous === null || previous === id) return;
  await grace.sleep(grace.graceMs);
  const replaced = join(outDir, SNAPSHOTS_DIR, previous);
  await fence();
  await ioStep(replaced, "delete the replaced snapshot", () => rm(replaced, { recursive: true, force: true }));
  await step("expired");
}

/**
 * Throws when this job's staging directory is gone: the fence's error when a job that took the lock over
 * deleted it, else an IoError (it was deleted by hand).
 */
async function ownStaging(stagingDir: string, fence: Fence): Promise<void> {
  if ((await stat(stagingDir).catch(() => null))?.isDirectory() === true) return;
  await fence();
  throw new IoError(`The staging directory ${stagingDir} of this job was deleted: nothing of this run was published, and the dataset is as it was`, stagingDir);
}

/** A step that creates a name, where something there already (EEXIST) is as good. */
async function ifAbsent(done: Promise<void>): Promise<void> {
  await done.catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
}

/**
 * Idempotent, after the switch (by the publish, or by the next job's recovery): a real entry where a link
 * belongs, or one the publish listed for removal (a dataset of the layout before snapshots), is moved aside
 * (the manifest first), links are made (the manifest last); evalshard's links to entries the current
 * snapshot lacks, and snapshot folders other than the current one (the replaced version, dead runs'), go.
 * `current`: the snapshot just switched to, where the caller knows it (else it is read); `replaced`: the
 * snapshot it replaced, kept for its grace (the caller deletes it). `fence` is awaited before anything is
 * deleted, after the folders are listed: a job that took the lock over since creates its folders later, so
 * they are never in the list.
 */
export async function finishSnapshot(outDir: string, step: PublishHook, current?: { readonly id: string; readonly record: SnapshotEntries }, replaced?: string | null, fence: Fence = unfenced): Promise<void> {
  const id = current?.id ?? (await currentSnapshot(outDir));
  const folders = await readdir(join(outDir, SNAPSHOTS_DIR)).catch(() => [] as string[]);
  await fence();
  for (const other of folders) {
    if (other !== id && other !== replaced) await ioStep(join(outDir, SNAPSHOTS_DIR, other), "delete the replaced snapshot", () => rm(join(outDir, SNAPSHOTS_DIR, other), { recursive: true, force: true }));
  }
  const { entries, listed } = current?.record ?? (id === null ? { entries: [], listed: [] } : await entriesOf(outDir, id));
  for (const name of await readdir(outDir)) {
    // A link to an entry the current version lacks: dangling, made before a switch that did not happen, or
    // the replaced version's. Entries never start with ".", so neither do their links.
    if (!name.startsWith(".") && !entries.includes(name) && (await linkOf(join(outDir, name))) === `${CURRENT}/${name}`) await unlink(join(outDir, name));
  }
  if (id === null) return;
  const old = join(outDir, `${OLD_PREFIX}${id}`);
  const manifestLast = publishOrder(entries);
  const manifestFirst = [...manifestLast].reverse();
  const unlinked = new Set<string>();
  let moved = false;
  for (const name of [...manifestFirst, ...listed.filter((n) => !entries.includes(n))]) {
    const path = join(outDir, name);
    const link = await linkOf(path);
    if (link === `${CURRENT}/${name}`) continue;
    if (link !== null) {
      await ioStep(old, "create the directory for replaced entries", () => mkdir(old, { recursive: true }));
      await ioStep(path, "move aside", () => rename(path, join(old, name)));
      moved = true;
    }
    unlinked.add(name);
  }
  const linking = manifestLast.filter((name) => unlinked.has(name));
  for (const name of linking) await ioStep(join(outDir, name), "link", () => symlink(`${CURRENT}/${name}`, join(outDir, name)));
  // Stale links and folders going need no sync: a crash brings them back for the next recovery to remove.
  if (moved || linking.length > 0) await syncDir(outDir);
  await ioStep(old, "delete the replaced output", () => rm(old, { recursive: true, force: true }));
  await step("cleaned");
}

/** The top-level names a snapshot holds, and those its publish listed (replaced or removed). */
export interface SnapshotEntries {
  readonly entries: readonly string[];
  readonly listed: readonly string[];
}

async function entriesOf(outDir: string, id: string): Promise<SnapshotEntries> {
  const path = join(outDir, SNAPSHOTS_DIR, id, ENTRIES_FILE);
  const text = await ioStep(path, "read", () => readFile(path, "utf8"));
  const names = (list: unknown): list is string[] => Array.isArray(list) && list.every((e) => typeof e === "string" && e !== "" && !/[/\\]/.test(e) && !e.startsWith("."));
  const record = JSON.parse(text) as Partial<SnapshotEntries>;
  if (!names(record.entries) || !names(record.listed)) throw new IoError(`${path} is not one evalshard wrote; inspect the output directory by hand`, path);
  return { entries: record.entries, listed: record.listed };
}

/** What the link `path` points at; "" for anything there that is not a link, null for nothing there. */
async function linkOf(path: string): Promise<string | null> {
  return ioStepOr(path, "inspect", null, () => readlink(path).catch((error: NodeJS.ErrnoException) => (error.code === "EINVAL" ? "" : Promise.reject(error))));
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
    // A link shares bytes already on disk; a copy's are new.
    await ioStep(to, "flush", () => syncFile(to));
  }
}
