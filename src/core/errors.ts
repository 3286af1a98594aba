/** Base of every error evalshard throws on purpose. Bad records are never errors: they are counted. */
export class EvalshardError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A flag, option or pipeline value is wrong. CLI exit code 2. */
export class ConfigError extends EvalshardError {}

/** Reading an input or writing the output failed. CLI exit code 1. */
export class IoError extends EvalshardError {
  readonly path: string;
  constructor(message: string, path: string, options?: { cause?: unknown }) {
    super(message, options);
    this.path = path;
  }
}

/** Another job holds the output directory. */
export class LockedError extends EvalshardError {}

/**
 * This job's lock was taken over (it had not renewed its lease in time, e.g. stopped or frozen): it may no
 * longer switch, delete or publish anything of the dataset, which is the new holder's now.
 */
export class FencedError extends LockedError {}

/**
 * The service's benchmark suites answer (`GET /api/agent/suites`) fails spec 2.10's shape, or names no suite
 * asked for with `--suites`: the night would train on data it cannot decontaminate, so it fails (CLI exit 9).
 */
export class SuitesError extends EvalshardError {}

/**
 * A partitioned night cannot be committed: a part did not stage it (missing or failed), or changed since.
 * Nothing was published. CLI exit code 10.
 */
export class PartsMissingError extends EvalshardError {
  /** The parts' numbers (k of k/N), ascending. */
  readonly parts: readonly number[];
  constructor(message: string, parts: readonly number[]) {
    super(message);
    this.parts = parts;
  }
}
