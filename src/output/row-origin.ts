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
}
