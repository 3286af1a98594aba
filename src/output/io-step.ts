import { IoError } from "../core/errors.js";

/** Runs one filesystem step; a failure becomes an IoError naming the step and the path (an IoError passes as is). */
export async function ioStep<T>(path: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof IoError) throw error;
    throw new IoError(`Cannot ${what} ${path}: ${(error as Error).message}`, path, { cause: error });
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
