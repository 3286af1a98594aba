import { lstat, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { ioStep, ioStepOr } from "../core/io-step.js";

/** Whether `path` exists (a symbolic link counts, even one whose target is gone). */
export async function exists(path: string): Promise<boolean> {
  return ioStepOr(path, "inspect", false, () => lstat(path).then(() => true));
}

export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes the names inside every folder under `path` (and `path` itself) durable, all folders at once. Files
 * are not synced here: whoever put one there flushed it (a writer's close, a copy), or it is a hard link to
 * a published one.
 */
export async function syncFolders(path: string): Promise<void> {
  const entries = await ioStep(path, "list", () => readdir(path, { withFileTypes: true }));
  await Promise.all([syncDir(path), ...entries.filter((entry) => entry.isDirectory()).map((entry) => syncFolders(join(path, entry.name)))]);
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
