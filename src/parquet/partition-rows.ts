import type { ColumnBuffer } from "./column-buffer.js";

/** Scratch the rows are copied through, grown as needed and kept (one per thread). */
let scratchLevels = new Uint8Array(0);
let scratchReps = new Uint8Array(0);
let scratchValues = new Uint8Array(0);

/**
 * Reorders a column's rows, in place and stably, so that the rows of part 0 come first, then those of part 1,
 * and so on (`partOf[row]`, parts from 0 to `parts - 1`). A split run's unit holds the rows of every split in
 * input order; each split's rows then form one run of rows that `RowGroupBuilder.withFirstRows` encodes.
 * Rows are found from the levels as `compactRows` finds them; runs of neighbouring rows of one part move as
 * one copy. Linear in the column's data, times the parts for finding the runs.
 */
export function partitionRows(column: ColumnBuffer, partOf: Uint8Array, parts: number): void {
  const { defs, reps, values, view, maxDef, width } = column;
  const repeated = column.maxRep > 0;
  const rows = partOf.length;
  // Where each row starts: its first entry and its first value byte (and, at `rows`, the ends).
  const entryAt = new Uint32Array(rows + 1);
  const byteAt = new Float64Array(rows + 1);
  let row = -1;
  let byte = 0;
  for (let e = 0; e < column.entries; e++) {
    if (!repeated || reps[e] === 0) {
      row++;
      if (row < rows) {
        entryAt[row] = e;
        byteAt[row] = byte;
      }
    }
    if (maxDef === 0 || defs[e] === maxDef) byte += width > 0 ? width : 4 + view.getUint32(byte, true);
  }
  if (row + 1 !== rows) throw new Error(`Column ${column.leaf.path.join(".")} holds ${row + 1} rows where the row group has ${rows}`);
  entryAt[rows] = column.entries;
  byteAt[rows] = byte;
  const storeDefs = maxDef > 0;
  if (storeDefs && scratchLevels.length < column.entries) scratchLevels = new Uint8Array(column.entries * 2);
  if (repeated && scratchReps.length < column.entries) scratchReps = new Uint8Array(column.entries * 2);
  if (scratchValues.length < byte) scratchValues = new Uint8Array(byte * 2);
  let entries = 0;
  let bytes = 0;
  for (let part = 0; part < parts; part++) {
    for (let r = 0; r < rows; ) {
      if (partOf[r] !== part) {
        r++;
        continue;
      }
      const first = r;
      while (r < rows && partOf[r] === part) r++;
      const e0 = entryAt[first] as number;
      const e1 = entryAt[r] as number;
      const b0 = byteAt[first] as number;
      const b1 = byteAt[r] as number;
      if (storeDefs) scratchLevels.set(defs.subarray(e0, e1), entries);
      if (repeated) scratchReps.set(reps.subarray(e0, e1), entries);
      scratchValues.set(values.subarray(b0, b1), bytes);
      entries += e1 - e0;
      bytes += b1 - b0;
    }
  }
  if (entries !== column.entries || bytes !== byte) throw new Error(`Internal error: rows of ${column.leaf.path.join(".")} in parts outside 0..${parts - 1}`);
  if (storeDefs) defs.set(scratchLevels.subarray(0, entries));
  if (repeated) reps.set(scratchReps.subarray(0, entries));
  values.set(scratchValues.subarray(0, bytes));
  column.truncate(column.entries, column.valueCount, column.valueBytes);
}
