import { lstat, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { IoError } from "../core/errors.js";
import { ioStep } from "./io-step.js";

/** Whether `path` exists (a symbolic link counts, even one whose target is gone). */
export async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw new IoError(`Cannot inspect ${path}: ${error.message}`, path, { cause: error });
    },
  );
}

export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes every file and directory under `path` to disk before they are published. */
export async function syncTree(path: string): Promise<void> {
  const stat = await lstat(path);
  if (stat.isDirectory()) {
    await Promise.all((await readdir(path)).map((name) => syncTree(join(path, name))));
    await syncDir(path);
  } else if (stat.isFile()) {
    await ioStep(path, "flush", () => syncFile(path));
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
