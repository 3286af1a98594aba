import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { lstat, mkdir, open, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { ConfigError, IoError } from "../errors.js";

export { lockOutput } from "./output-lock.js";

const TMP_PREFIX = ".evalshard-tmp-";
const OLD_PREFIX = ".evalshard-old-";
const JOURNAL = "journal.json";
/** Moved out first and in last, so it is never next to data it does not describe. */
const COMMIT_ENTRY = "manifest.json";

/** A test hook: called after each step of a publish; throwing from it simulates a crash there. */
export type PublishHook = (step: string) => void | Promise<void>;

/** A run's private directory inside the output directory, published atomically when complete. */
export interface Staging {
  /** Where the whole output is written: `outDir/.evalshard-tmp-<id>/`. */
  readonly dir: string;
  /**
   * Replaces the listed top-level entries of the output directory with the staged ones. A listed
   * entry the staging directory lacks is removed from the output. Crash-safe: see {@link recoverStaging}.
   */
  publish(entries: readonly string[]): Promise<void>;
  /** Removes the staging directory; after a failed publish, finishes it instead (the journal is written). */
  abort(): Promise<void>;
}

interface Journal {
  readonly version: 1;
  readonly id: string;
  /** `present`: whether the staging directory held the entry when the journal was written. */
  readonly entries: readonly { readonly name: string; readonly present: boolean }[];
}

/** What {@link recoverStaging} did. */
export interface Recovery {
  /** Staging directories whose publish was finished (they had a journal). */
  readonly rolledForward: string[];
  /** Staging directories of unfinished runs, deleted. */
  readonly discarded: string[];
}

/**
 * Creates `outDir` if needed and a fresh staging directory inside it, after recovering earlier runs.
 * Call it holding the output lock ({@link lockOutput}): recovery deletes other runs' staging directories.
 */
export async function openStaging(outDir: string, options: { readonly onStep?: PublishHook } = {}): Promise<Staging> {
  await io(outDir, "create the output directory", () => mkdir(outDir, { recursive: true }));
  await recoverStaging(outDir);
  const id = `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
  const dir = join(outDir, `${TMP_PREFIX}${id}`);
  await io(dir, "create the staging directory", () => mkdir(dir));
  const step = options.onStep ?? (() => undefined);
  let journaled = false;
  return {
    dir,
    async publish(entries) {
      const names = checkEntries(entries);
      const journal: Journal = {
        version: 1,
        id,
        entries: await Promise.all(names.map(async (name) => ({ name, present: await exists(join(dir, name)) }))),
      };
      // In parallel: each waits on the disk, and only all of them together must precede the journal.
      await Promise.all(journal.entries.filter((e) => e.present).map((e) => syncTree(join(dir, e.name))));
      await step("synced");
      const temp = join(dir, `${JOURNAL}.tmp`);
      await io(temp, "write the publish journal", async () => {
        await writeFile(temp, JSON.stringify(journal));
        await syncFile(temp);
        await rename(temp, join(dir, JOURNAL));
        await syncDir(dir);
      });
      journaled = true;
      await step("journal");
      await rollForward(outDir, dir, journal, step);
      await cleanUp(outDir, dir, id, step);
    },
    async abort() {
      if (!journaled) {
        await rm(dir, { recursive: true, force: true });
        return;
      }
      // Half the moves may be done: only finishing them leaves a complete output. If that fails
      // too, the journal stays for the next recoverStaging.
      await recoverStaging(outDir).catch(() => undefined);
    },
  };
}

/**
 * Brings `outDir` back to a complete output after a crash: a staging directory with a journal had
 * started publishing and is rolled forward; one without is an unfinished run and is deleted; old
 * entries left aside are deleted. Call it holding the output lock ({@link lockOutput}).
 */
export async function recoverStaging(outDir: string): Promise<Recovery> {
  const recovery: Recovery = { rolledForward: [], discarded: [] };
  const names = await readdir(outDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw new IoError(`Cannot list ${outDir}: ${error.message}`, outDir, { cause: error });
  });
  for (const name of names.filter((n) => n.startsWith(TMP_PREFIX))) {
    const dir = join(outDir, name);
    const journal = await readJournal(join(dir, JOURNAL));
    if (journal === null) {
      await io(dir, "delete the unfinished staging directory", () => rm(dir, { recursive: true, force: true }));
      recovery.discarded.push(dir);
    } else {
      await rollForward(outDir, dir, journal, () => undefined);
      await cleanUp(outDir, dir, journal.id, () => undefined);
      recovery.rolledForward.push(dir);
    }
  }
  for (const name of names.filter((n) => n.startsWith(OLD_PREFIX))) {
    const dir = join(outDir, name);
    await io(dir, "delete the replaced output", () => rm(dir, { recursive: true, force: true }));
  }
  return recovery;
}

/** Idempotent: old entries go aside (the manifest first), then new ones move in (the manifest last). */
async function rollForward(outDir: string, stagingDir: string, journal: Journal, step: PublishHook): Promise<void> {
  const old = join(outDir, `${OLD_PREFIX}${journal.id}`);
  await io(old, "create the directory for replaced entries", () => mkdir(old, { recursive: true }));
  const commitLast = [...journal.entries].sort((a, b) => Number(a.name === COMMIT_ENTRY) - Number(b.name === COMMIT_ENTRY));
  for (const e of [...commitLast].reverse()) {
    // A staged entry that is gone has been moved in: what is in the output is already new.
    const replaceable = !e.present || (await exists(join(stagingDir, e.name)));
    if (replaceable && (await exists(join(outDir, e.name)))) {
      await io(join(outDir, e.name), "move aside", () => rename(join(outDir, e.name), join(old, e.name)));
      await step(`aside:${e.name}`);
    }
  }
  await syncDir(old);
  for (const e of commitLast) {
    if (e.present && (await exists(join(stagingDir, e.name)))) {
      await io(join(outDir, e.name), "move into place", () => rename(join(stagingDir, e.name), join(outDir, e.name)));
      await step(`in:${e.name}`);
    }
  }
  await syncDir(outDir);
  await step("moved");
}

async function cleanUp(outDir: string, stagingDir: string, id: string, step: PublishHook): Promise<void> {
  const old = join(outDir, `${OLD_PREFIX}${id}`);
  await io(old, "delete the replaced output", () => rm(old, { recursive: true, force: true }));
  await step("old-removed");
  // The journal goes last: until then a crash rolls forward again, which is a no-op.
  for (const name of await readdir(stagingDir)) {
    if (name !== JOURNAL) await rm(join(stagingDir, name), { recursive: true, force: true });
  }
  await io(stagingDir, "delete the staging directory", () => rm(stagingDir, { recursive: true, force: true }));
  await step("done");
}

function checkEntries(entries: readonly string[]): string[] {
  for (const name of entries) {
    if (name === "" || name === "." || name === ".." || /[/\\]/.test(name) || name.startsWith(".evalshard")) {
      throw new ConfigError(`Cannot publish ${JSON.stringify(name)}: expected the name of a top-level entry of the output directory`);
    }
  }
  return [...new Set(entries)];
}

async function readJournal(path: string): Promise<Journal | null> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    // Only a journal that is surely absent lets recovery delete the directory.
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
    throw new IoError(`Cannot read the publish journal ${path}: ${error.message}`, path, { cause: error });
  });
  if (text === null) return null;
  try {
    const journal = JSON.parse(text) as Journal;
    if (journal.version === 1 && typeof journal.id === "string" && Array.isArray(journal.entries)) return journal;
  } catch {
    // fall through: written by rename, so this is not a torn write but a foreign file
  }
  throw new IoError(`The publish journal ${path} is not one evalshard wrote; inspect the output directory by hand`, path);
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw new IoError(`Cannot inspect ${path}: ${error.message}`, path, { cause: error });
    },
  );
}

async function io<T>(path: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof IoError) throw error;
    throw new IoError(`Cannot ${what} ${path}: ${(error as Error).message}`, path, { cause: error });
  }
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes every file and directory under `path` to disk before the journal says they are ready. */
async function syncTree(path: string): Promise<void> {
  const stat = await lstat(path);
  if (stat.isDirectory()) {
    await Promise.all((await readdir(path)).map((name) => syncTree(join(path, name))));
    await syncDir(path);
  } else if (stat.isFile()) {
    await io(path, "flush", () => syncFile(path));
  }
}

/** Makes renames inside `dir` durable; a no-op where directories cannot be opened. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r").catch(() => null);
  if (handle === null) return;
  try {
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a directory.
  } finally {
    await handle.close();
  }
}
