import type { Quarantined, StreamError } from "../../../core/flow.js";
import type { DropReason } from "../../../core/reasons.js";
import type { EncodedRowGroup } from "../../../parquet/encode-row-group.js";

/** A non-blank line's outcome: its record kept as a row, its record dropped (the reason), or the line's own item. */
export type LineOutcome = "kept" | DropReason | Quarantined | StreamError;

/**
 * A unit once its rows are in their shards, for a caller that follows the run line by line (the library's
 * stream): every non-blank line of the unit in input order, and its row groups, which hold the `kept` lines'
 * rows in the same order. The groups' bytes are valid until the caller's promise settles.
 */
export interface WrittenUnit {
  readonly lines: readonly LineOutcome[];
  readonly groups: readonly EncodedRowGroup[];
}

/**
 * Called with each unit, in input order, after its rows are appended; the run reads no further ahead than it
 * does while a shard is written, so a slow caller holds the run back instead of filling memory. Its outcomes are
 * final: a run with it learns the dedup winners on a first read (a row handed over cannot be taken back).
 */
export type UnitFollower = (unit: WrittenUnit) => Promise<void>;
