import type { ColumnBuffer, ColumnLengths } from "./column-buffer.js";

/**
 * The lengths of the column's first `rows` rows. Rows are found from the levels as `compactRows` finds them
 * (a repetition level of 0 starts one; without repetition every entry is a row); variable-width values are
 * walked by their length prefixes. Linear in what the prefix holds.
 */
export function rowPrefix(column: ColumnBuffer, rows: number): ColumnLengths {
  const { defs, reps, view, maxDef, width } = column;
  let entries = rows;
  if (column.maxRep > 0) {
    let row = -1;
    for (entries = 0; entries < column.entries; entries++) if (reps[entries] === 0 && ++row === rows) break;
  }
  if (entries > column.entries) throw new Error(`Column ${column.leaf.path.join(".")} holds fewer than ${rows} rows`);
  let valueCount = 0;
  let valueBytes = 0;
  for (let e = 0; e < entries; e++) {
    if (maxDef > 0 && defs[e] !== maxDef) continue;
    valueCount++;
    valueBytes += width > 0 ? width : 4 + view.getUint32(valueBytes, true);
  }
  return { entries, valueCount, valueBytes };
}
