import { EvalshardError, IoError } from "../core/errors.js";
import { isDiskFull } from "../core/io-step.js";

/**
 * The error to throw when reading an input failed: an evalshard error as it is, anything else (an
 * `ENOENT`, a stream error) as an `IoError` naming the input and the cause.
 */
export function readError(name: string, err: unknown): EvalshardError {
  if (err instanceof EvalshardError) return err;
  const cause = err instanceof Error ? err.message : String(err);
  // A write of ours (a spool, a staged line) failed inside the read loop: not the input's fault.
  if (isDiskFull(err)) return new IoError(`Cannot stage input "${name}" for reading: the disk is full (${cause}): free space, or point the output or TMPDIR elsewhere`, name, { cause: err });
  return new IoError(`Cannot read input "${name}": ${cause}`, name, { cause: err });
}

/** `items` as read from the input `name`: a failure while reading them is thrown as its {@link readError}. */
export async function* readingInput<T>(name: string, items: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* items;
  } catch (err) {
    throw readError(name, err);
  }
}
