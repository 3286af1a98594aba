import type { Flow } from "../../../core/flow.js";

/** A kept line, as its unit knows it: its input line's length and digest (`lineDigest`). */
export interface KeptLine {
  readonly bytes: number;
  readonly digest: number;
}

/** A non-blank line's outcome, with its provenance: its record kept as a row, its record dropped, or the line's own item. */
export type LineOutcome = Flow<KeptLine>;

/**
 * Called with each unit's non-blank lines in input order, once its rows are appended (the keyed rows of its
 * `kept` lines, in the same order, for a caller that follows the run line by line: the library's stream). The
 * run reads no further ahead than it does while a shard is written, so a slow caller holds the run back
 * instead of filling memory. Its outcomes are final: a run with it learns the dedup winners on a first read
 * (a row handed over cannot be taken back).
 */
export type UnitFollower = (lines: readonly LineOutcome[]) => Promise<void>;
