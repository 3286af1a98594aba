import { stringifyExact } from "../../../core/exact-json.js";
import type { EncodedRowGroup } from "../../../parquet/encode-row-group.js";
import type { RowGroupBuilder } from "../../../parquet/row-group-builder.js";
import type { Field } from "../../../schema/column-type.js";
import { tabularRow } from "../../../sinks/tabular-row.js";

/**
 * A JSON Lines run's extra column: each row's line, as the stages' JSONL shards write it (`tabularRow`, then
 * `stringifyExact`). The unit's row group keeps the dataset's columns too: the text audit reads them.
 * No column of a format can be named so.
 */
export const LINE_FIELD: Field = { name: "\u0000line", type: { kind: "string" }, nullable: false };

/** `record` with its JSON line in {@link LINE_FIELD}, for shredding. */
export function withLine(columns: readonly Field[], record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { ...record, [LINE_FIELD.name]: stringifyExact(tabularRow(columns, record)) };
}

/**
 * The builder's rows as JSON lines, each ending in a newline: the last column's values (PLAIN BYTE_ARRAY, a
 * 4-byte length then the UTF-8), with no column chunks.
 */
export function encodeLines(rows: RowGroupBuilder): EncodedRowGroup {
  const column = rows.columns.at(-1);
  if (column === undefined || column.leaf.path[0] !== LINE_FIELD.name) throw new Error("Internal error: a row group without its JSON lines");
  const values = column.values;
  const bytes = Buffer.allocUnsafe(column.valueBytes);
  let from = 0;
  let to = 0;
  for (let i = 0; i < column.valueCount; i++) {
    const length = values.readUInt32LE(from);
    to += values.copy(bytes, to, from + 4, from + 4 + length);
    bytes[to++] = 0x0a;
    from += 4 + length;
  }
  return { rows: rows.rows, columns: [], uncompressedSize: to, compressedSize: to, bytes: bytes.subarray(0, to) };
}
