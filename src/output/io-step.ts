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
