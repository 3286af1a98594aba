import { stringifyExact } from "../../../core/exact-json.js";
import type { EncodedRowGroup } from "../../../parquet/encode-row-group.js";
import type { RowGroupBuilder } from "../../../parquet/row-group-builder.js";
import type { Field } from "../../../schema/column-type.js";
import type { RecordFacts } from "../../../formats/format.js";
import { tabularRow } from "../../../sinks/tabular-row.js";

/**
 * A JSON Lines run's extra column: each row's line, as a JSONL shard writes it (src/sinks/jsonl-format.ts:
 * `tabularRow`, then `stringifyExact`). The unit's row group keeps the dataset's columns too: the text audit reads them.
 * No column of a format can be named so.
 */
export const LINE_FIELD: Field = { name: "\u0000line", type: { kind: "string" }, nullable: false };

/** `record` with its JSON line in {@link LINE_FIELD}, for shredding; `keyedBy`: a nightly's {@link keyedLine}. */
export function withLine(columns: readonly Field[], record: Readonly<Record<string, unknown>>, keyedBy: KeyedBy | null = null): Record<string, unknown> {
  return { ...record, [LINE_FIELD.name]: keyedBy === null ? stringifyExact(tabularRow(columns, record)) : keyedLine(keyedBy, record) };
}

/** What keys a nightly row: its record's key and scorecard version, and a view row's place among its record's. */
export interface KeyedBy extends Pick<RecordFacts, "key" | "scorecardVersion"> {
  readonly row?: number;
}

/**
 * A nightly row's line: its record's key, scorecard version and (a view's row) place, as JSON (no tab or
 * newline is left raw in them), then the row as a keyed sink stores it (`stringifyExact`), tab-separated.
 */
export function keyedLine({ key, scorecardVersion, row }: KeyedBy, record: Readonly<Record<string, unknown>>): string {
  return `${JSON.stringify(key)}\t${JSON.stringify(scorecardVersion)}\t${row ?? ""}\t${stringifyExact(record)}`;
}

/** The key, version, row and record line of a {@link keyedLine}. */
export function readKeyedLine(text: string): { readonly key: string; readonly version: number | null; readonly row: number | undefined; readonly line: string } {
  const first = text.indexOf("\t");
  const second = text.indexOf("\t", first + 1);
  const third = text.indexOf("\t", second + 1);
  if (first < 0 || second < 0 || third < 0) throw new Error("Internal error: a keyed line without its key, version and row");
  const row = text.slice(second + 1, third);
  return { key: JSON.parse(text.slice(0, first)) as string, version: JSON.parse(text.slice(first + 1, second)) as number | null, row: row === "" ? undefined : Number(row), line: text.slice(third + 1) };
}
/** The keyed lines (`keyedLine`) of a unit's encoded rows (each ending in a newline), read in order. */
export function* readKeyedLines(bytes: Uint8Array): Generator<ReturnType<typeof readKeyedLine>> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf("\n", at);
    yield readKeyedLine(text.slice(at, end));
    at = end + 1;
  }
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
