import type { ColumnType, Field } from "../schema/column-type.js";

/**
 * A record in the shape of a Parquet row, for the JSONL shards: every column present in column order (an
 * absent optional field is `null`), each map a list of `{key, value}` entries, each json value its JSON text.
 * So `datasets.load_dataset` gives a JSONL and a Parquet output of the same input the same features and rows:
 * it cannot load a map (it would infer a struct with one field per key ever seen), nor free-form values
 * (it infers one type per column and fails on the first value of another shape). docs/decisions.md.
 */
export function tabularRow(columns: readonly Field[], record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const { name, type, omitNull } of columns) {
    const value = tabularValue(type, record[name]);
    if (value !== null || omitNull !== true) row[name] = value;
  }
  return row;
}

function tabularValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case "json":
      return JSON.stringify(value);
    case "list":
      return (value as readonly unknown[]).map((item) => tabularValue(type.item, item));
    case "map":
      return Object.entries(value as Readonly<Record<string, unknown>>).map(([key, v]) => ({ key, value: tabularValue(type.value, v) }));
    case "struct":
      return tabularRow(type.fields, value as Readonly<Record<string, unknown>>);
    default:
      return value;
  }
}
