import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parquetMetadata } from "hyparquet";
import { describe, expect, it } from "vitest";
import { ConfigError, IoError } from "../../src/core/errors.js";
import type { ColumnType, Field } from "../../src/schema/column-type.js";
import { nativeParquetFormat } from "../../src/sinks/native-parquet-format.js";
import type { NativeParquetCompression } from "../../src/sinks/native-parquet-format.js";
import type { ShardFormat } from "../../src/output/shard-format.js";
import { ShardedWriter } from "../../src/output/sharded-writer.js";
import { tempDir } from "../helpers/temp-dir.js";
import { readHyparquet, readNodeDuckdb } from "./helpers/read-back.js";
import { expectedRow, rowFromEngine } from "./helpers/record-space.js";

type Row = Record<string, unknown>;
const f = (name: string, type: ColumnType): Field => ({ name, type, nullable: true });
const COLUMNS: Field[] = [
  f("id", { kind: "int64" }),
  f("name", { kind: "string" }),
  f("blob", { kind: "json" }),
  f("traits", { kind: "map", value: { kind: "struct", fields: [f("mean", { kind: "float64" }), f("evidence", { kind: "list", item: { kind: "string" } })] } }),
];
const root = tempDir("evalshard-native-format-");
const format = nativeParquetFormat({ compression: "zstd" });

let counter = 0;
async function writeShard(records: readonly Row[], shardFormat: ShardFormat = format): Promise<string> {
  const path = join(root, `shard-${counter++}.parquet`);
  const writer = await shardFormat.open(path, COLUMNS);
  for (const r of records) await writer.write(r);
  await writer.close();
  return path;
}

const rowGroupsOf = (path: string): number[] => {
  const bytes = readFileSync(path);
  return parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).row_groups.map((g) => Number(g.num_rows));
};

describe("the shard writer", () => {
  it.each(["zstd", "gzip", "snappy", "none"] as NativeParquetCompression[])("writes %s shards that read back, row groups every rowGroupRows rows", async (compression) => {
    const records = Array.from({ length: 25 }, (_, id) => ({ id, name: `row ${id} é`, blob: { id, list: [id, null] }, traits: id % 4 === 0 ? {} : { t: { mean: id / 3, evidence: [`e${id}`] } } }));
    const path = await writeShard(records, nativeParquetFormat({ compression, rowGroupRows: 10 }));
    expect(rowGroupsOf(path)).toEqual([10, 10, 5]);
    const [rows] = await readNodeDuckdb([path]);
    expect(rows?.map((r) => rowFromEngine(COLUMNS, r))).toEqual(records.map((r) => expectedRow(COLUMNS, r)));
    expect((await readHyparquet(path)).map((r) => rowFromEngine(COLUMNS, r))).toEqual(records.map((r) => expectedRow(COLUMNS, r)));
  });

  it("cuts a row group early once its buffers pass rowGroupBytes", async () => {
    const records = Array.from({ length: 6 }, (_, id) => ({ id, name: "x".repeat(1000) }));
    expect(rowGroupsOf(await writeShard(records, nativeParquetFormat({ compression: "zstd", rowGroupBytes: 2500 })))).toEqual([3, 3]);
  });

  it("counts rows", async () => {
    const writer = await format.open(join(root, "counted.parquet"), COLUMNS);
    await writer.write({ id: 1, name: "é" });
    await writer.write({ id: 2 });
    expect(writer.rows).toBe(2);
    await writer.close();
  });

  it("writes an empty shard as a valid file with the schema and no rows", async () => {
    const path = await writeShard([]);
    expect(rowGroupsOf(path)).toEqual([]);
    expect(await readNodeDuckdb([path])).toEqual([[]]);
  });

  it("keeps the order of many rows over many row groups", async () => {
    const n = 20_000;
    const [rows] = await readNodeDuckdb([await writeShard(Array.from({ length: n }, (_, id) => ({ id })))]);
    expect(rows?.map((r) => Number(r.id))).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it("refuses a value that does not fit its column, with an IoError, and goes on without that row", async () => {
    const path = join(root, "bad-value.parquet");
    const writer = await format.open(path, COLUMNS);
    await writer.write({ id: 1 });
    await expect(writer.write({ id: 2, name: 5 })).rejects.toThrow(/name takes a string, got 5/);
    await expect(writer.write({ id: 1.5 })).rejects.toThrow(IoError);
    await writer.write({ id: 3 });
    expect(writer.rows).toBe(2);
    await writer.close();
    const [rows] = await readNodeDuckdb([path]);
    expect(rows?.map((r) => r.id)).toEqual(["1", "3"]);
  });

  it("refuses writes and a second close once closed", async () => {
    const writer = await format.open(join(root, "closed.parquet"), COLUMNS);
    await writer.close();
    await expect(writer.write({ id: 1 })).rejects.toThrow(/the shard is closed/);
    await expect(writer.close()).rejects.toThrow(IoError);
  });

  it("abort removes the file, whatever was written", async () => {
    const dir = join(root, "aborted");
    mkdirSync(dir);
    const writer = await nativeParquetFormat({ compression: "zstd", rowGroupRows: 2 }).open(join(dir, "x.parquet"), COLUMNS);
    for (let id = 0; id < 5; id++) await writer.write({ id });
    await writer.abort();
    expect(readdirSync(dir)).toEqual([]);
    await expect(writer.write({ id: 1 })).rejects.toThrow(/aborted/);
  });

  it("fails to open where the file cannot be created", async () => {
    await expect(format.open(join(root, "no", "such", "dir", "x.parquet"), COLUMNS)).rejects.toThrow(IoError);
  });

  it("rejects bad options and empty column lists", async () => {
    expect(() => nativeParquetFormat({ compression: "lz4" as "zstd" })).toThrow(ConfigError);
    expect(() => nativeParquetFormat({ compression: "zstd", rowGroupRows: 0 })).toThrow(/rowGroupRows/);
    expect(() => nativeParquetFormat({ compression: "zstd", rowGroupBytes: 1.5 })).toThrow(/rowGroupBytes/);
    expect(() => nativeParquetFormat({ compression: "zstd", zstdLevel: 30 })).toThrow(/zstdLevel/);
    await expect(format.open(join(root, "none.parquet"), [])).rejects.toThrow(ConfigError);
  });

  it("describes itself as the DuckDB writer does", () => {
    expect([format.extension, format.description]).toEqual([".parquet", "parquet/zstd"]);
  });
});

describe("behind ShardedWriter", () => {
  it("rotates into Hugging Face named shards that read back in order", async () => {
    const dir = join(root, "dataset");
    const writer = new ShardedWriter({ dir, format, columns: COLUMNS, maxRows: 4, maxBytes: Number.POSITIVE_INFINITY });
    const records = Array.from({ length: 10 }, (_, id) => ({ id, name: String(id) }));
    for (const r of records) await writer.write(r);
    const shards = await writer.finish();
    expect(shards.map((s) => [s.path, s.rows])).toEqual([
      ["data/train-00000-of-00003.parquet", 4],
      ["data/train-00001-of-00003.parquet", 4],
      ["data/train-00002-of-00003.parquet", 2],
    ]);
    const files = shards.map((s) => join(dir, s.path));
    expect(files.every((p) => existsSync(p))).toBe(true);
    expect((await readNodeDuckdb(files)).flat().map((r) => Number(r.id))).toEqual(records.map((r) => r.id));
  });
});
