import type { ColumnType, Field } from "../../../src/schema/column-type.js";

type Row = Record<string, unknown>;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (s: string): string => s.replace(LONE_SURROGATE, "\ufffd");

/**
 * What a record's column reads back as from any engine, once {@link fromEngine} normalized it: absent is
 * null, maps are lists of {key, value}, JSON values as `JSON.parse(JSON.stringify(v))`, int64 -0 is 0, and
 * lone surrogates are U+FFFD (UTF-8 cannot hold them).
 */
export function expectedValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case "int64":
      return (value as number) === 0 ? 0 : value;
    case "string":
      return wellFormed(value as string);
    case "json":
      return JSON.parse(wellFormed(JSON.stringify(value)));
    case "list":
      return (value as unknown[]).map((v) => expectedValue(type.item, v));
    case "map":
      return Object.entries(value as Row).map(([key, v]) => ({ key: wellFormed(key), value: expectedValue(type.value, v) }));
    case "struct":
      return Object.fromEntries(type.fields.map((f) => [f.name, expectedValue(f.type, (value as Row)[f.name])]));
    default:
      return value;
  }
}

/** A record as {@link expectedValue} says each of its columns reads back. */
export function expectedRow(columns: readonly Field[], record: Row): Row {
  return Object.fromEntries(columns.map((f) => [f.name, expectedValue(f.type, record[f.name])]));
}

/**
 * An engine's value in the space of {@link expectedValue}: int64 (BigInt, text or number) to a number, JSON
 * text parsed here, on purpose (json columns are plain strings: every reader must hand back text, so a value
 * that is not a string fails), structs checked to carry exactly their fields in order.
 */
export function fromEngine(type: ColumnType, value: unknown, path = "value"): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case "int64": {
      const n = Number(value);
      return n === 0 ? 0 : n;
    }
    case "float64":
      return typeof value === "string" ? Number(value) : value;
    case "json":
      if (typeof value !== "string") throw new Error(`${path} is JSON read back as ${typeof value}, not as text`);
      return JSON.parse(value);
    case "list":
      return (value as unknown[]).map((v, i) => fromEngine(type.item, v, `${path}[${i}]`));
    case "map":
      return (value as Row[]).map((e, i) => {
        if (Object.keys(e).join() !== "key,value") throw new Error(`${path}[${i}] has keys ${Object.keys(e).join()}`);
        return { key: e.key, value: fromEngine(type.value, e.value, `${path}[${i}].value`) };
      });
    case "struct": {
      const keys = Object.keys(value as object).join();
      if (keys !== type.fields.map((f) => f.name).join()) throw new Error(`${path} has fields ${keys}`);
      return Object.fromEntries(type.fields.map((f) => [f.name, fromEngine(f.type, (value as Row)[f.name], `${path}.${f.name}`)]));
    }
    default:
      return value;
  }
}

/** A row read by an engine, normalized column by column with {@link fromEngine}. */
export function rowFromEngine(columns: readonly Field[], row: Row): Row {
  const keys = Object.keys(row).join();
  if (keys !== columns.map((f) => f.name).join()) throw new Error(`row has columns ${keys}`);
  return Object.fromEntries(columns.map((f) => [f.name, fromEngine(f.type, row[f.name], f.name)]));
}
