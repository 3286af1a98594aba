import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { copyFile, link, lstat, mkdir, open, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { ConfigError, IoError } from "../core/errors.js";
import { LocalFiles } from "./local-files.js";
import type { PublishHook, Staging } from "./storage.js";
import { ioStep } from "./io-step.js";
import { REJECTED_DIR } from "./publish-guard.js";

const TMP_PREFIX = ".evalshard-tmp-";
const OLD_PREFIX = ".evalshard-old-";
const JOURNAL = "journal.json";
/** Moved out first and in last, so it is never next to data it does not describe. */
const COMMIT_ENTRY = "manifest.json";

/**
 * A run's private directory inside the output directory, `outDir/.evalshard-tmp-<id>/`, published by
 * journal and renames: crash-safe, see {@link recoverStaging}. Its scratch is the directory itself.
 */
export interface LocalStaging extends Staging {
  /** Where the whole output is written. */
  readonly dir: string;
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
export async function openStaging(outDir: string, options: { readonly onStep?: PublishHook } = {}): Promise<LocalStaging> {
  await ioStep(outDir, "create the output directory", () => mkdir(outDir, { recursive: true }));
  await recoverStaging(outDir);
  const id = `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
  const dir = join(outDir, `${TMP_PREFIX}${id}`);
  await ioStep(dir, "create the staging directory", () => mkdir(dir));
  const step = options.onStep ?? (() => undefined);
  let journaled = false;
  const files = new LocalFiles(dir);
  return {
    dir,
    location: dir,
    scratch: dir,
    create: (path) => files.create(path),
    read: (path) => files.read(path),
    list: (prefix) => files.list(prefix),
    rename: (from, to) => files.rename(from, to),
    remove: (path) => files.remove(path),
    reuse: (path) => reuseFile(join(outDir, ...path.split("/")), files.at(path)),
    async publish(entries) {
      const names = checkEntries(entries.map((name) => name.replace(/\/$/, "")));
      // A folder entry ("_quarantine/") is published even when empty, as a local reader expects it.
      for (const name of names.filter((n) => entries.includes(`${n}/`))) await ioStep(dir, "create", () => mkdir(join(dir, name), { recursive: true }));
      const journal: Journal = {
        version: 1,
        id,
        entries: await Promise.all(names.map(async (name) => ({ name, present: await exists(join(dir, name)) }))),
      };
      // In parallel: each waits on the disk, and only all of them together must precede the journal.
      await Promise.all(journal.entries.filter((e) => e.present).map((e) => syncTree(join(dir, e.name))));
      await step("synced");
      const temp = join(dir, `${JOURNAL}.tmp`);
      await ioStep(temp, "write the publish journal", async () => {
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
    async reject(entries, name) {
      const target = join(outDir, REJECTED_DIR, name);
      await ioStep(target, "create the folder for a rejected attempt", () => mkdir(target, { recursive: true }));
      for (const entry of checkEntries(entries.map((n) => n.replace(/\/$/, "")))) {
        if (await exists(join(dir, entry))) await ioStep(join(target, entry), "keep the rejected", () => rename(join(dir, entry), join(target, entry)));
      }
      await ioStep(dir, "delete the staging directory", () => rm(dir, { recursive: true, force: true }));
      return target;
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
      await ioStep(dir, "delete the unfinished staging directory", () => rm(dir, { recursive: true, force: true }));
      recovery.discarded.push(dir);
    } else {
      await rollForward(outDir, dir, journal, () => undefined);
      await cleanUp(outDir, dir, journal.id, () => undefined);
      recovery.rolledForward.push(dir);
    }
  }
  for (const name of names.filter((n) => n.startsWith(OLD_PREFIX))) {
    const dir = join(outDir, name);
    await ioStep(dir, "delete the replaced output", () => rm(dir, { recursive: true, force: true }));
  }
  return recovery;
}

/** Idempotent: old entries go aside (the manifest first), then new ones move in (the manifest last). */
async function rollForward(outDir: string, stagingDir: string, journal: Journal, step: PublishHook): Promise<void> {
  const old = join(outDir, `${OLD_PREFIX}${journal.id}`);
  await ioStep(old, "create the directory for replaced entries", () => mkdir(old, { recursive: true }));
  const commitLast = [...journal.entries].sort((a, b) => Number(a.name === COMMIT_ENTRY) - Number(b.name === COMMIT_ENTRY));
  for (const e of [...commitLast].reverse()) {
    // A staged entry that is gone has been moved in: what is in the output is already new.
    const replaceable = !e.present || (await exists(join(stagingDir, e.name)));
    if (replaceable && (await exists(join(outDir, e.name)))) {
      await ioStep(join(outDir, e.name), "move aside", () => rename(join(outDir, e.name), join(old, e.name)));
      await step(`aside:${e.name}`);
    }
  }
  await syncDir(old);
  for (const e of commitLast) {
    if (e.present && (await exists(join(stagingDir, e.name)))) {
      await ioStep(join(outDir, e.name), "move into place", () => rename(join(stagingDir, e.name), join(outDir, e.name)));
      await step(`in:${e.name}`);
    }
  }
  await syncDir(outDir);
  await step("moved");
}

async function cleanUp(outDir: string, stagingDir: string, id: string, step: PublishHook): Promise<void> {
  const old = join(outDir, `${OLD_PREFIX}${id}`);
  await ioStep(old, "delete the replaced output", () => rm(old, { recursive: true, force: true }));
  await step("old-removed");
  // The journal goes last: until then a crash rolls forward again, which is a no-op.
  for (const name of await readdir(stagingDir)) {
    if (name !== JOURNAL) await rm(join(stagingDir, name), { recursive: true, force: true });
  }
  await ioStep(stagingDir, "delete the staging directory", () => rm(stagingDir, { recursive: true, force: true }));
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

/** Puts a published file into the staging without rewriting it: a hard link, or a copy where links fail. */
async function reuseFile(from: string, to: string): Promise<void> {
  await ioStep(dirname(to), "create", () => mkdir(dirname(to), { recursive: true }));
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "EXDEV" && code !== "ENOTSUP" && code !== "EMLINK") {
      throw new IoError(`Cannot link ${from} into the staging directory: ${(error as Error).message}`, from, { cause: error });
    }
    await copyFile(from, to);
  }
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
    await ioStep(path, "flush", () => syncFile(path));
  }
}

/** Makes renames inside `dir` durable; a no-op where directories cannot be opened. */
async function syncDir(dir: string): Promise<void> {
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
