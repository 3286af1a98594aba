import type { ColumnBuffer } from "./column-buffer.js";

const TWO_32 = 4294967296;

/**
 * Finds the range of an INT64 or DOUBLE column's present values for its statistics: writes the smallest
 * into `out[0]`, the largest into `out[1]` and the count of NaNs (which the range leaves out, as Parquet's
 * TYPE_ORDER asks) into `out[2]`. Returns false, with the range unset and `out[2]` 0, for other types, no
 * values, or only NaNs (a DOUBLE chunk of only NaNs has always reported a NaN count of 0). Numbers go out
 * through a Float64Array, not a new object (docs/decisions.md "hot code shape", number kinds). One pass
 * over 8-byte values: cheap next to compressing them.
 */
export function valueRange(column: ColumnBuffer, out: Float64Array): boolean {
  const type = column.leaf.type;
  out[2] = 0;
  if ((type !== "int64" && type !== "float64") || column.valueBytes === 0) return false;
  return type === "int64" ? int64Range(column.view, column.valueBytes, out) : float64Range(column.view, column.valueBytes, out);
}

function int64Range(view: DataView, valueBytes: number, out: Float64Array): boolean {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let at = 0; at < valueBytes; at += 8) {
    const hi = view.getInt32(at + 4, true);
    // Beyond 2^53 (an exact seed) a double cannot hold the bound: no statistics rather than a wrong one, which
    // would make readers skip row groups that hold a value.
    if (hi >= 0x200000 || hi < -0x200000) return false;
    const v = hi * TWO_32 + view.getUint32(at, true);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  out[0] = min;
  out[1] = max;
  return true;
}

function float64Range(view: DataView, valueBytes: number, out: Float64Array): boolean {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let nanCount = 0;
  for (let at = 0; at < valueBytes; at += 8) {
    const v = view.getFloat64(at, true);
    if (v !== v) nanCount++;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (min > max) return false;
  out[2] = nanCount;
  // TYPE_ORDER for doubles: a zero bound is written as -0 for the min and +0 for the max, since -0 == +0.
  out[0] = min === 0 ? -0 : min;
  out[1] = max === 0 ? 0 : max;
  return true;
}
