import type { StatsRow } from "../stats/stats-row.js";

/**
 * Which record a kept row comes from, for a sink that keys its rows (the incremental dataset replaces a
 * record's rows when its scorecard version changes): the format's dedup key and scorecard version, and the
 * row's place among its record's rows when a training view made them.
 */
export interface RowOrigin {
  readonly key: string;
  readonly version: number | null;
  /** Absent for a plain output, whose record is its one row. */
  readonly row?: number;
  /** The row's split, when the plan splits (`--split`): its record's group decides it. */
  readonly split?: string;
  /** What the dataset's statistics read of the row's record (a nightly keeps them per bucket); the stages engine gives it. */
  readonly stats?: StatsRow;
  /** With a tokenizer: the row's training-text tokens. */
  readonly tokens?: number;
}
