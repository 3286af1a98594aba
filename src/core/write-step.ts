import { IoError } from "./errors.js";

/** Error codes that mean the disk (or the quota, or the file size limit) is full, not that input is bad. */
const FULL = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

/** Whether a filesystem error says there is no room left. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && FULL.has(code);
}

/**
 * Runs one write to a file of our own (a spool, a staged record, a shard); a failure becomes an IoError
 * naming the file and what was being done, and a full disk says so in words. A write failure inside a
 * read loop would otherwise be reported as the input being unreadable. An IoError passes as is.
 */
export async function writeStep<T>(path: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof IoError) throw error;
    throw writeError(path, what, error);
  }
}

/** The IoError of a failed write to `path`. */
export function writeError(path: string, what: string, error: unknown): IoError {
  const message = error instanceof Error ? error.message : String(error);
  const why = isDiskFull(error) ? `the disk is full (${message}): free space there, or point the output or TMPDIR elsewhere` : message;
  return new IoError(`Cannot ${what} ${path}: ${why}`, path, { cause: error });
}
