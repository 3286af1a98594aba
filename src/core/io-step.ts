import { IoError } from "./errors.js";

/** Error codes that mean the disk (or the quota, or the file size limit) is full, not that input is bad. */
const FULL = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

/** Whether a filesystem error says there is no room left. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && FULL.has(code);
}

/**
 * Runs one filesystem step (a write to a file of our own: a spool, a staged record, a shard; a step of a
 * publish); a failure becomes an IoError naming the step and the path, and a full disk says so in words. A
 * write failure inside a read loop would otherwise be reported as the input being unreadable. An IoError
 * passes as is.
 */
export async function ioStep<T>(path: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof IoError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const why = isDiskFull(error) ? `the disk is full (${message}): free space there, or point the output or TMPDIR elsewhere` : message;
    throw new IoError(`Cannot ${what} ${path}: ${why}`, path, { cause: error });
  }
}

/** {@link ioStep}, where nothing at `path` (ENOENT, or a file where a folder was expected: ENOTDIR) is `absent`. */
export async function ioStepOr<T, A>(path: string, what: string, absent: A, fn: () => Promise<T>): Promise<T | A> {
  return ioStep(path, what, () =>
    fn().catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return absent;
      throw error;
    }),
  );
}
