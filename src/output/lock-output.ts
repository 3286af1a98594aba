import { randomBytes } from "node:crypto";
import { link, lstat, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { IoError, LockedError } from "../core/errors.js";

const LOCK = ".evalshard.lock";
/** An unreadable lock younger than this may still be being written by its creator. */
const LOCK_WRITE_GRACE_MS = 10_000;

interface LockContent {
  readonly pid: number;
  readonly started: string;
  readonly host: string;
  readonly token: string;
}

/**
 * Takes `outDir/.evalshard.lock` (created with O_EXCL, holding pid, start time and host). A lock whose
 * process is alive throws {@link LockedError}; one whose process is gone is taken over.
 * Returns the release function.
 */
export async function lockOutput(outDir: string): Promise<() => Promise<void>> {
  try {
    await mkdir(outDir, { recursive: true });
  } catch (error) {
    throw new IoError(`Cannot create the output directory ${outDir}: ${(error as Error).message}`, outDir, { cause: error });
  }
  const path = join(outDir, LOCK);
  const mine: LockContent = {
    pid: process.pid,
    started: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    host: hostname(),
    token: randomBytes(8).toString("hex"),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await writeFile(path, `${JSON.stringify(mine)}\n`, { flag: "wx" });
      return async () => {
        const held = await readLock(path);
        if (held?.token === mine.token) await unlink(path).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new IoError(`Cannot create the lock ${path}: ${(error as Error).message}`, path, { cause: error });
      }
    }
    const held = await readLock(path);
    if (held === null && (await isYoung(path))) {
      throw new LockedError(`Output directory ${outDir} is being locked by another job right now (${path} is still empty)`);
    }
    if (held !== null && (held.host !== mine.host || isAlive(held.pid))) {
      const where = held.host === mine.host ? "" : ` on host ${held.host}`;
      throw new LockedError(
        `Output directory ${outDir} is locked by process ${held.pid}${where} (started ${held.started}); if no such job is running, delete ${path}`,
      );
    }
    await takeOver(path, held);
  }
  throw new LockedError(`Output directory ${outDir}: could not take the lock ${path}, other jobs keep taking it`);
}

/** Moves a stale lock away; puts it back if another job replaced it in the meantime. */
async function takeOver(path: string, stale: LockContent | null): Promise<void> {
  const aside = `${path}.stale-${randomBytes(6).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch {
    return; // someone else moved it: try to create again
  }
  const moved = await readLock(aside);
  if (stale !== null && moved?.token !== stale.token) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

async function readLock(path: string): Promise<LockContent | null> {
  const text = await readFile(path, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<LockContent>;
    if (typeof value.pid === "number" && typeof value.token === "string") {
      return { pid: value.pid, started: String(value.started), host: String(value.host), token: value.token };
    }
  } catch {
    // A torn or foreign lock file: treated as stale.
  }
  return null;
}

async function isYoung(path: string): Promise<boolean> {
  const stat = await lstat(path).catch(() => null);
  return stat !== null && Date.now() - stat.mtimeMs < LOCK_WRITE_GRACE_MS;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
