import { ConfigError } from "../core/errors.js";

/** How big a shard may grow. */
export interface ShardLimits {
  /** Most rows per shard (`Infinity` for no limit). */
  readonly maxRows: number;
  /**
   * Most bytes per shard (`Infinity` for no limit), measured on the rows' input lines plus their newline;
   * a larger row gets a shard alone.
   */
  readonly maxBytes: number;
}

/**
 * The rotation rule, for every shard set (the engine's main thread, `ShardedWriter`): a row goes into the current shard unless that shard already holds
 * a row and this one would take it past a limit; then it starts the next shard.
 */
export class ShardRotation {
  /** The current shard's index; -1 before the first row. */
  shard = -1;
  rows = 0;
  bytes = 0;
  readonly maxRows: number;
  readonly maxBytes: number;

  constructor(limits: ShardLimits) {
    for (const key of ["maxRows", "maxBytes"] as const) {
      const n = limits[key];
      if (n !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(n) && n >= 1)) {
        throw new ConfigError(`Expected \`${key}\` to be an integer from 1 and up, or Infinity, got ${n}`);
      }
    }
    this.maxRows = limits.maxRows;
    this.maxBytes = limits.maxBytes;
  }

  /** Places a row of `size` bytes (its line and newline) and returns its shard's index. */
  place(size: number): number {
    if (this.shard < 0 || (this.rows > 0 && (this.rows + 1 > this.maxRows || this.bytes + size > this.maxBytes))) {
      this.shard++;
      this.rows = 0;
      this.bytes = 0;
    }
    this.rows++;
    this.bytes += size;
    return this.shard;
  }
}
