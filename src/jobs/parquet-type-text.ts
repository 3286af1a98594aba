import type { SchemaTree } from "hyparquet";

/**
 * A Parquet column's type in SQL notation (`BIGINT`, `VARCHAR[]`, `STRUCT(a DOUBLE, b VARCHAR)`), as
 * `inspect` prints it: the type names DuckDB's `DESCRIBE` gave when DuckDB read the shards, so the output
 * reads as before.
 */
export function parquetTypeText(node: SchemaTree): string {
  const { element, children } = node;
  const annotation = element.logical_type?.type ?? element.converted_type;
  if (children.length === 0) return leafType(node);
  if (annotation === "LIST") {
    // LIST: a repeated group of one element (the three-level layout every writer uses today).
    const repeated = children[0];
    const item = repeated !== undefined && repeated.children.length === 1 ? repeated.children[0] : repeated;
    return `${item === undefined ? "NULL" : parquetTypeText(item)}[]`;
  }
  if (annotation === "MAP" || annotation === "MAP_KEY_VALUE") {
    const [key, value] = children[0]?.children ?? [];
    return `MAP(${key === undefined ? "NULL" : parquetTypeText(key)}, ${value === undefined ? "NULL" : parquetTypeText(value)})`;
  }
  const struct = `STRUCT(${children.map((c) => `${identifier(c.element.name)} ${parquetTypeText(c)}`).join(", ")})`;
  // A repeated group outside LIST is a list of structs.
  return element.repetition_type === "REPEATED" ? `${struct}[]` : struct;
}

function leafType({ element }: SchemaTree): string {
  const logical = element.logical_type;
  let type: string;
  switch (element.type) {
    case "BOOLEAN":
      type = "BOOLEAN";
      break;
    case "INT32":
      type = logical?.type === "INTEGER" && logical.bitWidth < 32 ? (logical.bitWidth === 8 ? "TINYINT" : "SMALLINT") : "INTEGER";
      break;
    case "INT64":
      type = logical?.type === "TIMESTAMP" ? "TIMESTAMP" : "BIGINT";
      break;
    case "FLOAT":
      type = "FLOAT";
      break;
    case "DOUBLE":
      type = "DOUBLE";
      break;
    case "BYTE_ARRAY":
    case "FIXED_LEN_BYTE_ARRAY":
      type = logical?.type === "JSON" || element.converted_type === "JSON" ? "JSON" : logical?.type === "STRING" || element.converted_type === "UTF8" ? "VARCHAR" : "BLOB";
      break;
    default:
      type = String(element.type);
  }
  return element.repetition_type === "REPEATED" ? `${type}[]` : type;
}

/** A field name as SQL prints it: quoted when it is not a plain lower-case identifier. */
function identifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}
