import { ConfigError } from "../core/errors.js";
import type { ColumnType, Field } from "./column-type.js";

// DuckDB type text of our columns: used by the benchmark's DuckDB baseline (bench/duckdb-convert.mjs loads it
// from dist/) and by the tests' DuckDB reference writer; evalshard itself no longer runs DuckDB.

/** A DuckDB identifier in double quotes, so any name (reserved words, spaces, quotes) is taken literally. */
export function sqlIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A DuckDB string literal: single quotes doubled. Use it for paths too; they may hold any character. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The DuckDB type of a column: MAP(VARCHAR, X) for map, X[] for list, STRUCT(...) for struct, JSON for json. */
export function duckdbType(type: ColumnType): string {
  return render(type, "the column");
}

function render(type: ColumnType, path: string): string {
  switch (type.kind) {
    case "string":
      return "VARCHAR";
    case "int64":
      return "BIGINT";
    case "float64":
      return "DOUBLE";
    case "bool":
      return "BOOLEAN";
    case "json":
      return "JSON";
    case "list":
      return `${render(type.item, `${path}[]`)}[]`;
    case "map":
      return `MAP(VARCHAR, ${render(type.value, `${path}.*`)})`;
    case "struct":
      if (type.fields.length === 0) {
        throw new ConfigError(`${path} is a struct without fields, which DuckDB and Parquet cannot store: drop the whole field instead`);
      }
      checkNames(type.fields);
      return `STRUCT(${type.fields.map((f) => `${sqlIdentifier(f.name)} ${render(f.type, `${path}.${f.name}`)}`).join(", ")})`;
  }
}

/** The `columns={...}` struct literal `read_ndjson` takes, e.g. `{'run_id': 'VARCHAR', 'seat': 'STRUCT(...)'}`. */
export function duckdbColumns(fields: readonly Field[]): string {
  checkNames(fields);
  return `{${fields.map((f) => `${sqlString(f.name)}: ${sqlString(render(f.type, f.name))}`).join(", ")}}`;
}

/**
 * The select list that turns rows read with {@link duckdbColumns} into the output layout. With
 * `maps: "entries"` every map, at any depth, becomes a list of `{key, value}` structs: the physical
 * layout of a Parquet/Arrow map without the MAP annotation, which Hugging Face `datasets` cannot load.
 */
export function duckdbSelectList(fields: readonly Field[], options: { readonly maps: "map" | "entries" }): string {
  checkNames(fields);
  return fields
    .map((f) => {
      const column = sqlIdentifier(f.name);
      return options.maps === "map" || !hasMap(f.type) ? column : `${entries(f.type, column, 0)} AS ${column}`;
    })
    .join(", ");
}

function hasMap(type: ColumnType): boolean {
  switch (type.kind) {
    case "map":
      return true;
    case "list":
      return hasMap(type.item);
    case "struct":
      return type.fields.some((f) => hasMap(f.type));
    default:
      return false;
  }
}

/** An expression rebuilding `expr` (of `type`) with maps as entry lists; nulls stay null at every level. */
function entries(type: ColumnType, expr: string, depth: number): string {
  if (!hasMap(type)) return expr;
  const x = `x${depth}`;
  switch (type.kind) {
    case "map": {
      const list = `map_entries(${expr})`;
      if (!hasMap(type.value)) return list;
      const value = entries(type.value, `struct_extract(${x}, 'value')`, depth + 1);
      return `list_transform(${list}, lambda ${x}: struct_pack("key" := struct_extract(${x}, 'key'), "value" := ${value}))`;
    }
    case "list":
      return `list_transform(${expr}, lambda ${x}: ${entries(type.item, x, depth + 1)})`;
    case "struct": {
      const packed = type.fields
        .map((f) => `${sqlIdentifier(f.name)} := ${entries(f.type, `struct_extract(${expr}, ${sqlString(f.name)})`, depth)}`)
        .join(", ");
      return `CASE WHEN ${expr} IS NULL THEN NULL ELSE struct_pack(${packed}) END`;
    }
    default:
      return expr;
  }
}

/** DuckDB compares identifiers case-insensitively, so `a` and `A` in one struct would collide. */
function checkNames(fields: readonly Field[]): void {
  const seen = new Map<string, string>();
  for (const f of fields) {
    if (f.name === "" || f.name.includes("\0")) {
      throw new ConfigError(`Column name ${JSON.stringify(f.name)} cannot be used in DuckDB: it is empty or holds a NUL character`);
    }
    const folded = f.name.toLowerCase();
    const other = seen.get(folded);
    if (other !== undefined) {
      throw new ConfigError(`Columns ${JSON.stringify(other)} and ${JSON.stringify(f.name)} differ only in case, which DuckDB cannot tell apart`);
    }
    seen.set(folded, f.name);
  }
}
