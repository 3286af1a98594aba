import type { ColumnBuffer } from "./column-buffer.js";

/**
 * Removes from a column, in place, the rows whose `keep[row]` is 0. Rows are found from the levels (a
 * repetition level of 0 starts one; without repetition every entry is a row) and values are walked one
 * by one, so this is linear but not fast: it serves the rare after-the-fact removal of a few rows.
 */
export function compactRows(column: ColumnBuffer, keep: Uint8Array): void {
  const { defs, reps, values, view, maxDef, width } = column;
  const repeated = column.maxRep > 0;
  let row = -1;
  let kept = false;
  let written = 0;
  let byte = 0;
  let writtenBytes = 0;
  let writtenValues = 0;
  for (let e = 0; e < column.entries; e++) {
    if (!repeated || reps[e] === 0) {
      row++;
      kept = keep[row] === 1;
    }
    const present = maxDef === 0 || defs[e] === maxDef;
    const size = !present ? 0 : width > 0 ? width : 4 + view.getUint32(byte, true);
    if (kept) {
      if (maxDef > 0) defs[written] = defs[e] as number;
      if (repeated) reps[written] = reps[e] as number;
      written++;
      if (present) {
        if (writtenBytes !== byte) values.copyWithin(writtenBytes, byte, byte + size);
        writtenBytes += size;
        writtenValues++;
      }
    }
    byte += size;
  }
  if (row + 1 !== keep.length) {
    throw new Error(`Column ${column.leaf.path.join(".")} holds ${row + 1} rows where the row group has ${keep.length}`);
  }
  column.truncate({ entries: written, valueCount: writtenValues, valueBytes: writtenBytes });
}
