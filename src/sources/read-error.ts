import { EvalshardError, IoError } from "../core/errors.js";

/**
 * The error to throw when reading an input failed: an evalshard error as it is, anything else (an
 * `ENOENT`, a stream error) as an `IoError` naming the input and the cause.
 */
export function readError(name: string, err: unknown): EvalshardError {
  if (err instanceof EvalshardError) return err;
  const cause = err instanceof Error ? err.message : String(err);
  return new IoError(`Cannot read input "${name}": ${cause}`, name, { cause: err });
}
