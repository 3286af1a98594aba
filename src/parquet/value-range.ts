import type { ColumnBuffer } from "./column-buffer.js";

/** The smallest and largest value of a column chunk, for its statistics; NaNs are counted apart. */
export interface ValueRange {
  readonly min: number;
  readonly max: number;
  /** Doubles only: NaN values, which the range leaves out (as Parquet's TYPE_ORDER asks). */
  readonly nanCount: number;
}

const TWO_32 = 4294967296;

/**
 * The range of an INT64 or DOUBLE column's present values, or null for other types, no values, or only
 * NaNs. One pass over 8-byte values: cheap next to compressing them.
 */
export function valueRange(column: ColumnBuffer): ValueRange | null {
  const { view, valueBytes } = column;
  const type = column.leaf.type;
  if ((type !== "int64" && type !== "float64") || valueBytes === 0) return null;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let nanCount = 0;
  for (let at = 0; at < valueBytes; at += 8) {
    const v = type === "int64" ? view.getInt32(at + 4, true) * TWO_32 + view.getUint32(at, true) : view.getFloat64(at, true);
    if (v !== v) nanCount++;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (min > max) return null;
  // TYPE_ORDER for doubles: a zero bound is written as -0 for the min and +0 for the max, since -0 == +0.
  if (min === 0) min = type === "float64" ? -0 : 0;
  if (max === 0) max = 0;
  return { min, max, nanCount };
}
