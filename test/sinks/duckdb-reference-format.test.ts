// The DuckDB writer the tests compare our encoder with (test/helpers/duckdb-parquet-format.ts): it must itself
// write what it is trusted to, or the comparisons would prove nothing.
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, IoError } from "../../src/core/errors.js";
import type { ColumnType, Field } from "../../src/schema/column-type.js";
import { sqlString } from "../../src/schema/duckdb-type.js";
import { duckdbParquetFormat as parquetFormat } from "../helpers/duckdb-parquet-format.js";
import type { ShardFormat } from "../../src/output/shard-format.js";
import { tempDir } from "../helpers/temp-dir.js";

const f = (name: string, type: ColumnType, nullable = true): Field => ({ name, type, nullable });
const STR: ColumnType = { kind: "string" };
const INT: ColumnType = { kind: "int64" };
const JSON_T: ColumnType = { kind: "json" };

const COLUMNS: Field[] = [
  f("id", INT, false),
  f("name", STR),
  f("score", { kind: "float64" }),
  f("ok", { kind: "bool" }),
  f("blob", JSON_T),
  f("steps", { kind: "list", item: JSON_T }),
  f("seat", { kind: "struct", fields: [f("role", STR), f("tags", { kind: "list", item: STR }), f("inner", { kind: "struct", fields: [f("n", INT)] })] }),
  f("traits", { kind: "map", value: { kind: "struct", fields: [f("mean", { kind: "float64" }), f("evidence", { kind: "list", item: STR })] } }),
];

const root = tempDir("evalshard-parquet-");
let instance: DuckDBInstance;
let connection: DuckDBConnection;
let format: ShardFormat;
beforeAll(async () => {
  instance = await DuckDBInstance.create(":memory:");
  connection = await instance.connect();
  format = parquetFormat({ compression: "zstd" });
});
afterAll(async () => {
  await format.dispose();
  connection.closeSync();
  instance.closeSync();
});

const query = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJson();
const readRows = (path: string) => query(`SELECT * FROM read_parquet(${sqlString(path)})`);

let counter = 0;
async function writeShard(records: readonly Record<string, unknown>[], options: { format?: ShardFormat; columns?: readonly Field[]; dir?: string } = {}): Promise<string> {
  const dir = options.dir ?? root;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `shard-${counter++}.parquet`);
  const writer = await (options.format ?? format).open(path, options.columns ?? COLUMNS);
  for (const r of records) await writer.write(r);
  await writer.close();
  return path;
}

describe("values survive the trip through DuckDB", () => {
  it("keeps nested structs, lists and maps, with nulls at every level and empty lists", async () => {
    const records = [
      {
        id: 1,
        name: "full",
        score: 0.1 + 0.2,
        ok: true,
        blob: { a: [1, { b: null }] },
        steps: [{ s: 1 }, null, "two", 3, [], {}],
        seat: { role: "r", tags: ["x", "y"], inner: { n: 5 } },
        traits: { persuasion: { mean: 0.5, evidence: ["e1"] }, honesty: { mean: -1, evidence: [] }, nothing: null },
      },
      { id: 2, name: null, score: null, ok: null, blob: null, steps: null, seat: null, traits: null },
      { id: 3, steps: [], seat: { role: null, tags: [], inner: null }, traits: {} },
      { id: 4, seat: { role: "r", tags: [null, ""], inner: { n: null } } },
    ];
    const rows = await readRows(await writeShard(records));
    expect(rows).toEqual([
      {
        id: "1",
        name: "full",
        score: 0.30000000000000004,
        ok: true,
        blob: '{"a":[1,{"b":null}]}',
        steps: ['{"s":1}', null, '"two"', "3", "[]", "{}"],
        seat: { role: "r", tags: ["x", "y"], inner: { n: "5" } },
        traits: [
          { key: "persuasion", value: { mean: 0.5, evidence: ["e1"] } },
          { key: "honesty", value: { mean: -1, evidence: [] } },
          { key: "nothing", value: null },
        ],
      },
      { id: "2", name: null, score: null, ok: null, blob: null, steps: null, seat: null, traits: null },
      { id: "3", name: null, score: null, ok: null, blob: null, steps: [], seat: { role: null, tags: [], inner: null }, traits: [] },
      { id: "4", name: null, score: null, ok: null, blob: null, steps: null, seat: { role: "r", tags: [null, ""], inner: { n: null } }, traits: null },
    ]);
  });

  it("keeps int64 values beyond 2^31 up to 2^53 - 1, and negatives", async () => {
    const ids = [2 ** 31, 2 ** 32 + 1, 2 ** 40, Number.MAX_SAFE_INTEGER, -(2 ** 31) - 1, 0];
    const rows = await readRows(await writeShard(ids.map((id) => ({ id }))));
    expect(rows.map((r) => r.id)).toEqual(ids.map(String));
  });

  it("keeps unicode, control characters and NUL in strings, map keys and JSON", async () => {
    const text = "Zoë 🚀 日本語 עִבְרִית e\u0301 \u2028\u2029 \t\n\r quote\" back\\slash nul\u0000 \u007f";
    const rows = await readRows(await writeShard([{ id: 1, name: text, blob: { [text]: text }, traits: { [text]: { mean: 1, evidence: [text] } } }]));
    expect(rows[0]?.name).toBe(text);
    expect(JSON.parse(rows[0]?.blob as string)).toEqual({ [text]: text });
    expect(rows[0]?.traits).toEqual([{ key: text, value: { mean: 1, evidence: [text] } }]);
  });

  it("keeps strings far larger than DuckDB's default 16 MiB JSON object limit", async () => {
    const big = "a".repeat(24 << 20);
    const path = await writeShard([{ id: 1, name: big, blob: { big } }, { id: 2, name: "small" }]);
    const rows = await query(`SELECT id, length(name) AS n, length(blob) AS b FROM read_parquet(${sqlString(path)})`);
    expect(rows).toEqual([
      { id: "1", n: String(big.length), b: String(big.length + 10) },
      { id: "2", n: "5", b: null },
    ]);
  });

  it("keeps the order records were written in", async () => {
    const n = 20_000;
    const path = await writeShard(Array.from({ length: n }, (_, id) => ({ id, name: `row ${id}`, steps: [id] })));
    const rows = await query(`SELECT id FROM read_parquet(${sqlString(path)})`);
    expect(rows.map((r) => Number(r.id))).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it("replaces lone surrogates, which UTF-8 cannot hold, with U+FFFD", async () => {
    const rows = await readRows(await writeShard([{ id: 1, name: "a\ud800b", blob: { ["k\udc00"]: "\ud83d" }, seat: { role: "ok 🚀", tags: ["\\ud800 is text"] } }]));
    expect(rows[0]?.name).toBe("a\ufffdb");
    expect(JSON.parse(rows[0]?.blob as string)).toEqual({ "k\ufffd": "\ufffd" });
    expect(rows[0]?.seat).toEqual({ role: "ok 🚀", tags: ["\\ud800 is text"], inner: null });
  });
});

describe("the Parquet schema", () => {
  it("writes json columns, also inside lists, as strings, as our encoder does (no JSON logical type)", async () => {
    const columns = [f("id", INT, false), f("blob", JSON_T), f("steps", { kind: "list", item: JSON_T })];
    const path = await writeShard([{ id: 1, blob: 1, steps: [1] }], { columns });
    const schema = await query(`SELECT name, converted_type FROM parquet_schema(${sqlString(path)}) WHERE name IN ('blob', 'element')`);
    expect(schema).toEqual([
      { name: "blob", converted_type: "UTF8" },
      { name: "element", converted_type: "UTF8" },
    ]);
    expect(await readRows(path)).toMatchObject([{ blob: "1", steps: ["1"] }]);
  });

  it("writes maps as {key, value} lists by default and as MAP with maps: 'map'", async () => {
    const entries = await query(`DESCRIBE SELECT traits FROM read_parquet(${sqlString(await writeShard([{ id: 1 }]))})`);
    expect(entries[0]?.column_type).toBe('STRUCT("key" VARCHAR, "value" STRUCT(mean DOUBLE, evidence VARCHAR[]))[]');
    const mapFormat = parquetFormat({ compression: "zstd", maps: "map" });
    try {
      const path = await writeShard([{ id: 1, traits: { a: { mean: 1, evidence: [] } } }], { format: mapFormat });
      const described = await query(`DESCRIBE SELECT traits FROM read_parquet(${sqlString(path)})`);
      expect(described[0]?.column_type).toBe("MAP(VARCHAR, STRUCT(mean DOUBLE, evidence VARCHAR[]))");
      expect((await readRows(path))[0]?.traits).toEqual([{ key: "a", value: { mean: 1, evidence: [] } }]);
    } finally {
      await mapFormat.dispose();
    }
  });

  it("writes an empty shard as a valid file with the full schema and no rows", async () => {
    const path = await writeShard([]);
    expect(await readRows(path)).toEqual([]);
    const described = await query(`DESCRIBE SELECT * FROM read_parquet(${sqlString(path)})`);
    expect(described.map((r) => [r.column_name, r.column_type])).toEqual([
      ["id", "BIGINT"],
      ["name", "VARCHAR"],
      ["score", "DOUBLE"],
      ["ok", "BOOLEAN"],
      ["blob", "VARCHAR"],
      ["steps", "VARCHAR[]"],
      ["seat", "STRUCT(\"role\" VARCHAR, tags VARCHAR[], \"inner\" STRUCT(n BIGINT))"],
      ["traits", 'STRUCT("key" VARCHAR, "value" STRUCT(mean DOUBLE, evidence VARCHAR[]))[]'],
    ]);
  });

  it.each(["zstd", "gzip", "snappy", "none"] as const)("compresses with %s", async (compression) => {
    const fmt = parquetFormat({ compression });
    try {
      const path = await writeShard([{ id: 1, name: "x" }], { format: fmt });
      const meta = await query(`SELECT DISTINCT compression FROM parquet_metadata(${sqlString(path)})`);
      expect(meta).toEqual([{ compression: compression === "none" ? "UNCOMPRESSED" : compression.toUpperCase() }]);
      expect(fmt.description).toBe(`parquet/${compression}`);
    } finally {
      await fmt.dispose();
    }
  });

  // DuckDB fills row groups a data chunk (2048 rows) at a time, so that is the smallest useful size.
  it("cuts row groups of rowGroupRows rows", async () => {
    const fmt = parquetFormat({ compression: "zstd", rowGroupRows: 4096 });
    try {
      const path = await writeShard(Array.from({ length: 10_000 }, (_, id) => ({ id })), { format: fmt });
      const groups = await query(`SELECT row_group_id, row_group_num_rows FROM parquet_metadata(${sqlString(path)}) WHERE column_id = 0 ORDER BY row_group_id`);
      expect(groups.map((g) => Number(g.row_group_num_rows))).toEqual([4096, 4096, 1808]);
    } finally {
      await fmt.dispose();
    }
  });
});

describe("paths", () => {
  it("reads and writes under directories holding quotes, glob characters and hive-like segments", async () => {
    const decoy = join(root, "paths", "a-b", "year=2024");
    const dir = join(root, "paths", "a*b [x] it's ? {y} ü", "year=2024");
    mkdirSync(decoy, { recursive: true });
    // A file the glob `a*b` would also match: the shard must not pick it up.
    await writeShard([{ id: 999 }], { dir: decoy });
    const path = await writeShard([{ id: 1, name: "here" }], { dir });
    expect(existsSync(path)).toBe(true);
    const rows = await query(`SELECT * FROM read_parquet(${sqlString(path)}, hive_partitioning = false)`);
    expect(rows.map((r) => [r.id, r.name])).toEqual([["1", "here"]]);
    // DuckDB would have added a `year` column from the path if the reader had not been told otherwise.
    expect(Object.keys(rows[0]!)).toEqual(COLUMNS.map((c) => c.name));
  });
});

describe("the shard writer", () => {
  it("counts rows and the staged JSON bytes, and deletes the staging file on close", async () => {
    const path = join(root, "counted.parquet");
    const writer = await format.open(path, COLUMNS);
    const records = [{ id: 1, name: "é" }, { id: 2 }];
    for (const r of records) await writer.write(r);
    expect(writer.rows).toBe(2);
    expect(existsSync(`${path}.stage.ndjson`)).toBe(true);
    await writer.close();
    expect(existsSync(`${path}.stage.ndjson`)).toBe(false);
    expect(statSync(path).size).toBeGreaterThan(0);
  });

  it("abort removes the staging file and the target", async () => {
    const dir = join(root, "aborted");
    mkdirSync(dir);
    const writer = await format.open(join(dir, "x.parquet"), COLUMNS);
    await writer.write({ id: 1 });
    await writer.abort();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("fails the close with an IoError, leaving nothing behind, when a value does not fit its column", async () => {
    const dir = join(root, "bad-type");
    mkdirSync(dir);
    const writer = await format.open(join(dir, "x.parquet"), COLUMNS);
    await writer.write({ id: "not a number" });
    await expect(writer.close()).rejects.toThrow(IoError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("converts shards closed at the same time one after another on the shared engine", async () => {
    const writers = await Promise.all([0, 1, 2].map((i) => format.open(join(root, `concurrent-${i}.parquet`), COLUMNS)));
    for (const [i, w] of writers.entries()) for (let id = 0; id < 1000; id++) await w.write({ id: id + i * 1000 });
    await Promise.all(writers.map((w) => w.close()));
    for (const i of [0, 1, 2]) expect((await readRows(join(root, `concurrent-${i}.parquet`))).length).toBe(1000);
  });

  it("fails to open where the staging file cannot be created", async () => {
    await expect(format.open(join(root, "no", "such", "dir", "x.parquet"), COLUMNS)).rejects.toThrow(IoError);
  });

  it("rejects bad options and empty column lists", async () => {
    expect(() => parquetFormat({ compression: "lz4" as "zstd" })).toThrow(ConfigError);
    expect(() => parquetFormat({ compression: "zstd", rowGroupRows: 0 })).toThrow(/rowGroupRows/);
    expect(() => parquetFormat({ compression: "zstd", memoryLimit: "lots" })).toThrow(/memoryLimit/);
    await expect(format.open(join(root, "none.parquet"), [])).rejects.toThrow(ConfigError);
  });
});
