import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { FORMATS } from "../../src/formats/index.js";
import type { ColumnType, Field } from "../../src/schema/column-type.js";
import { duckdbColumns, duckdbSelectList, duckdbType, sqlIdentifier, sqlString } from "../../src/schema/duckdb-type.js";
import { tempDir } from "../helpers/temp-dir.js";

const f = (name: string, type: ColumnType, nullable = true): Field => ({ name, type, nullable });
const STR: ColumnType = { kind: "string" };
const INT: ColumnType = { kind: "int64" };

let connection: DuckDBConnection;
let instance: DuckDBInstance;
beforeAll(async () => {
  instance = await DuckDBInstance.create(":memory:");
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});
const dir = tempDir();
const rows = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJson();

describe("duckdbType renders every column kind", () => {
  it("maps scalars to BIGINT, DOUBLE, BOOLEAN, VARCHAR and JSON", () => {
    expect(["string", "int64", "float64", "bool", "json"].map((kind) => duckdbType({ kind } as ColumnType))).toEqual(["VARCHAR", "BIGINT", "DOUBLE", "BOOLEAN", "JSON"]);
  });

  it("renders lists as X[], maps as MAP(VARCHAR, X) and structs with quoted field names", () => {
    const type: ColumnType = { kind: "struct", fields: [f("per trait", { kind: "map", value: { kind: "list", item: INT } }), f("order", STR)] };
    expect(duckdbType(type)).toBe('STRUCT("per trait" MAP(VARCHAR, BIGINT[]), "order" VARCHAR)');
  });

  it.each(["sft", "rl", "dpo"] as const)("renders the %s columns so DuckDB binds them", async (name) => {
    const file = join(dir, `${name}-empty.ndjson`);
    writeFileSync(file, "");
    const described = await rows(`DESCRIBE SELECT * FROM read_ndjson(${sqlString(file)}, columns=${duckdbColumns(FORMATS[name].columns)})`);
    expect(described.map((r) => r.column_name)).toEqual(FORMATS[name].columns.map((c) => c.name));
    const sft = described.find((r) => r.column_name === "trace_steps");
    if (sft !== undefined) expect(sft.column_type).toBe("JSON[]");
  });
});

describe("names are quoted so any name is taken literally", () => {
  const weird = ["it's", 'say "hi"', "select", "key", "value", "with space", "ünï😀", "a.b", "{x}"];

  it("doubles quotes in identifiers and string literals", () => {
    expect(sqlIdentifier('a"b')).toBe('"a""b"');
    expect(sqlString("it's")).toBe("'it''s'");
  });

  it("reads NDJSON whose keys are awkward names, nested and top-level", async () => {
    const inner: ColumnType = { kind: "struct", fields: weird.map((n) => f(n, STR)) };
    const fields = [...weird.map((n) => f(n, INT)), f("nested", inner)];
    const record = Object.fromEntries([...weird.map((n, i) => [n, i]), ["nested", Object.fromEntries(weird.map((n) => [n, n]))]]);
    const file = join(dir, "weird.ndjson");
    writeFileSync(file, `${JSON.stringify(record)}\n`);
    const [row] = await rows(`SELECT ${duckdbSelectList(fields, { maps: "map" })} FROM read_ndjson(${sqlString(file)}, columns=${duckdbColumns(fields)}, format='newline_delimited')`);
    expect(row).toEqual(Object.fromEntries([...weird.map((n, i) => [n, String(i)]), ["nested", record.nested]]));
  });

  it("rejects a struct without fields, naming where it is", () => {
    const emptied: ColumnType = { kind: "struct", fields: [f("dm_messages", { kind: "struct", fields: [] })] };
    expect(() => duckdbColumns([f("outcome", emptied)])).toThrow("outcome.dm_messages is a struct without fields");
  });

  it("rejects names DuckDB cannot tell apart, and empty names", () => {
    expect(() => duckdbColumns([f("Run", STR), f("run", STR)])).toThrow(ConfigError);
    expect(() => duckdbType({ kind: "struct", fields: [f("A", STR), f("a", INT)] })).toThrow(/differ only in case/);
    expect(() => duckdbColumns([f("", STR)])).toThrow(ConfigError);
  });
});

describe("duckdbSelectList with maps as entries", () => {
  const fields = [
    f("s", { kind: "struct", fields: [f("pt", { kind: "map", value: { kind: "struct", fields: [f("j", { kind: "json" }), f("n", INT)] } }), f("x", INT)] }),
    f("l", { kind: "list", item: { kind: "struct", fields: [f("m", { kind: "map", value: { kind: "list", item: INT } })] } }),
    f("mm", { kind: "map", value: { kind: "map", value: STR } }),
    f("plain", STR),
  ];

  it("leaves columns without maps as they are", () => {
    expect(duckdbSelectList([f("plain", STR), f("l", { kind: "list", item: INT })], { maps: "entries" })).toBe('"plain", "l"');
    expect(duckdbSelectList(fields, { maps: "map" })).toBe('"s", "l", "mm", "plain"');
  });

  it("turns maps at any depth into {key, value} lists and keeps nulls at every level", async () => {
    const file = join(dir, "maps.ndjson");
    const records = [
      { s: { pt: { a: { j: { z: [1] }, n: 1 }, b: null }, x: 1 }, l: [{ m: { k: [1, null] } }, null, { m: null }, { m: {} }], mm: { o: { i: "v" }, p: null, q: {} }, plain: "p" },
      { s: null, l: null, mm: null, plain: null },
      { s: { pt: null, x: null }, l: [], mm: {} },
    ];
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n"));
    const got = await rows(`SELECT ${duckdbSelectList(fields, { maps: "entries" })} FROM read_ndjson(${sqlString(file)}, columns=${duckdbColumns(fields)}, format='newline_delimited')`);
    expect(got).toEqual([
      {
        s: { pt: [{ key: "a", value: { j: '{"z":[1]}', n: "1" } }, { key: "b", value: null }], x: "1" },
        l: [{ m: [{ key: "k", value: ["1", null] }] }, null, { m: null }, { m: [] }],
        mm: [{ key: "o", value: [{ key: "i", value: "v" }] }, { key: "p", value: null }, { key: "q", value: [] }],
        plain: "p",
      },
      { s: null, l: null, mm: null, plain: null },
      { s: { pt: null, x: null }, l: [], mm: [], plain: null },
    ]);
  });
});
