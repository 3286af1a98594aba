import type { SplitAssigner } from "../../../splits/split-assigner.js";
import type { BatchSplits } from "./protocol.js";

/** A batch of a unit as main decides its split: its rows' groups, and (a view's run) rows per record. */
export interface SplitBatch {
  readonly rowCounts: Uint32Array | null;
  readonly splits: BatchSplits | null;
  /** Each row record's split (its index), as {@link recordSplits} gives it. */
  readonly sets: Uint32Array;
}

/**
 * Each row record's split (its index) in a batch of a split run; all 0 without splits (`rows` records).
 * Main's row loop reads a record's shard set from this in either run, so a split run runs the same loop as
 * a plain one, and it is no larger to compile (docs/decisions.md "hot code shape", compile size).
 */
export function recordSplits(splits: BatchSplits | null, rows: number): Uint32Array {
  const sets = new Uint32Array(rows);
  if (splits === null) return sets;
  const { rowGroups, splitOf } = splits;
  for (let at = 0; at < rows; at++) sets[at] = splitOf[rowGroups[at] as number] as number;
  return sets;
}

/**
 * Where each split's rows start in a unit's `keep`, which main writes split by split (split 0's rows, then
 * split 1's...): the order the worker's row groups hold them in.
 */
export function splitStarts(valid: readonly SplitBatch[], splits: number): Uint32Array {
  const starts = new Uint32Array(splits + 1);
  for (const { rowCounts, sets } of valid) {
    for (let at = 0; at < sets.length; at++) {
      const set = (sets[at] as number) + 1;
      starts[set] = (starts[set] as number) + (rowCounts === null ? 1 : (rowCounts[at] as number));
    }
  }
  for (let set = 1; set <= splits; set++) starts[set] = (starts[set] as number) + (starts[set - 1] as number);
  return starts.subarray(0, splits);
}

/**
 * Counts a unit's kept rows per group into `counter`; `kept`: each row record of the unit, in order, 1 when
 * its rows are written. Out of main's row loop, once per batch per group: there, the counter's Map lookups
 * made that loop larger to compile.
 */
export function countSplitRows(valid: readonly SplitBatch[], kept: Uint8Array, counter: SplitAssigner): void {
  let k = 0;
  for (const { rowCounts, splits } of valid) {
    if (splits === null) throw new Error("Internal error: a split run's batch came without its groups");
    const { rowGroups, splitOf, groups } = splits;
    const groupRows = new Float64Array(groups.length);
    for (let at = 0; at < rowGroups.length; at++) {
      const group = rowGroups[at] as number;
      if (kept[k++] === 1) groupRows[group] = (groupRows[group] as number) + (rowCounts === null ? 1 : (rowCounts[at] as number));
    }
    for (let group = 0; group < groupRows.length; group++) {
      const rows = groupRows[group] as number;
      if (rows > 0) counter.countAt(groups[group] as string, splitOf[group] as number, rows);
    }
  }
}
