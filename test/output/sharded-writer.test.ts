import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { ConfigError, IoError } from "../../src/core/errors.js";
import type { Field } from "../../src/schema/column-type.js";
import { sqlString } from "../../src/schema/duckdb-type.js";
import { jsonlFormat } from "../../src/sinks/jsonl-format.js";
import { parquetFormat } from "../../src/sinks/native-parquet-format.js";
import { fileWriterOf } from "../../src/output/shard-format.js";
import type { ShardFormat, ShardWriter } from "../../src/output/shard-format.js";
import { ShardedWriter } from "../../src/output/sharded-writer.js";
import { tempDir } from "../helpers/temp-dir.js";

const root = tempDir("evalshard-sharded-");
const COLUMNS: Field[] = [
  { name: "id", type: { kind: "int64" }, nullable: false },
  { name: "text", type: { kind: "string" }, nullable: true },
];
const jsonl = jsonlFormat({ compression: "none" });
let counter = 0;
const freshDir = () => join(root, `out-${counter++}`);
const lineBytes = (r: object) => Buffer.byteLength(JSON.stringify(r)) + 1;

async function writeAll(records: readonly Record<string, unknown>[], options: { maxRows?: number; maxBytes?: number; format?: ShardFormat; dir?: string } = {}) {
  const dir = options.dir ?? freshDir();
  const writer = new ShardedWriter({ dir, format: options.format ?? jsonl, columns: COLUMNS, maxRows: options.maxRows ?? Infinity, maxBytes: options.maxBytes ?? Infinity });
  for (const r of records) await writer.write(r);
  return { dir, shards: await writer.finish(), writer };
}

const readJsonl = (dir: string, path: string) =>
  readFileSync(join(dir, path), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("rotation", () => {
  const records = Array.from({ length: 10 }, (_, id) => ({ id, text: `record ${id}` }));

  it("starts a new shard when the next record would pass maxRows", async () => {
    const { dir, shards } = await writeAll(records, { maxRows: 3 });
    expect(shards.map((s) => s.rows)).toEqual([3, 3, 3, 1]);
    expect(shards.flatMap((s) => readJsonl(dir, s.path))).toEqual(records);
  });

  it("starts a new shard when the next record would pass maxBytes", async () => {
    const size = lineBytes(records[0]!);
    const { shards } = await writeAll(records, { maxBytes: size * 4 });
    expect(shards.map((s) => s.rows)).toEqual([4, 4, 2]);
    const { shards: tight } = await writeAll(records, { maxBytes: size * 4 - 1 });
    expect(tight.map((s) => s.rows)).toEqual([3, 3, 3, 1]);
  });

  it("writes a record larger than maxBytes alone in its shard", async () => {
    const big = { id: 99, text: "x".repeat(500) };
    const { dir, shards } = await writeAll([records[0]!, big, records[1]!], { maxBytes: 100 });
    expect(shards.map((s) => s.rows)).toEqual([1, 1, 1]);
    expect(readJsonl(dir, shards[1]!.path)).toEqual([big]);
  });
});

describe("finished shards", () => {
  it("take the Hugging Face names, with paths relative to dir, file sizes and SHA-256", async () => {
    const { dir, shards } = await writeAll(Array.from({ length: 5 }, (_, id) => ({ id })), { maxRows: 2 });
    expect(shards.map((s) => s.path)).toEqual(["data/train-00000-of-00003.jsonl", "data/train-00001-of-00003.jsonl", "data/train-00002-of-00003.jsonl"]);
    for (const s of shards) {
      const bytes = readFileSync(join(dir, s.path));
      expect(s.bytes).toBe(bytes.length);
      expect(s.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    expect(readdirSync(join(dir, "data")).sort()).toEqual(shards.map((s) => s.path.slice(5)));
  });

  it("use the split name", async () => {
    const dir = freshDir();
    const writer = new ShardedWriter({ dir, format: jsonl, columns: COLUMNS, split: "validation", maxRows: 10, maxBytes: Infinity });
    await writer.write({ id: 1 });
    expect((await writer.finish()).map((s) => s.path)).toEqual(["data/validation-00000-of-00001.jsonl"]);
  });

  it("are one empty shard when there were no records, so readers still get the schema", async () => {
    const format = parquetFormat({ compression: "zstd" });
    try {
      const { dir, shards } = await writeAll([], { format });
      expect(shards).toMatchObject([{ path: "data/train-00000-of-00001.parquet", rows: 0 }]);
      const instance = await DuckDBInstance.create(":memory:");
      const connection = await instance.connect();
      const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(join(dir, shards[0]!.path))})`)).getRowObjectsJson();
      connection.closeSync();
      instance.closeSync();
      expect(described.map((r) => [r.column_name, r.column_type])).toEqual([["id", "BIGINT"], ["text", "VARCHAR"]]);
    } finally {
      await format.dispose();
    }
  });

  it("hold Parquet rows in order across shards", async () => {
    const format = parquetFormat({ compression: "zstd" });
    try {
      const records = Array.from({ length: 5000 }, (_, id) => ({ id, text: `t${id}` }));
      const { dir, shards } = await writeAll(records, { format, maxRows: 1200 });
      expect(shards.map((s) => s.rows)).toEqual([1200, 1200, 1200, 1200, 200]);
      const instance = await DuckDBInstance.create(":memory:");
      const connection = await instance.connect();
      const ids: number[] = [];
      for (const s of shards) {
        const rows = (await connection.runAndReadAll(`SELECT id FROM read_parquet(${sqlString(join(dir, s.path))})`)).getRowObjectsJson();
        ids.push(...rows.map((r) => Number(r.id)));
      }
      connection.closeSync();
      instance.closeSync();
      expect(ids).toEqual(records.map((r) => r.id));
    } finally {
      await format.dispose();
    }
  });
});

describe("while writing", () => {
  it("keeps shards under hidden names no reader's pattern matches", async () => {
    const dir = freshDir();
    const writer = new ShardedWriter({ dir, format: jsonl, columns: COLUMNS, maxRows: 2, maxBytes: Infinity });
    for (let id = 0; id < 5; id++) await writer.write({ id });
    const names = readdirSync(join(dir, "data"));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toMatch(/^\.train-\d{5}\.jsonl\.partial$/);
    expect(writer.rows).toBe(5);
    await writer.abort();
  });

  it("abort removes every shard, finished or not, and data/ when it is left empty", async () => {
    const dir = freshDir();
    const writer = new ShardedWriter({ dir, format: jsonl, columns: COLUMNS, maxRows: 2, maxBytes: Infinity });
    for (let id = 0; id < 5; id++) await writer.write({ id });
    await writer.abort();
    expect(existsSync(join(dir, "data"))).toBe(false);
    await expect(writer.write({ id: 9 })).rejects.toThrow(IoError);
  });

  it("abort after finish removes the final shards too", async () => {
    const dir = freshDir();
    const writer = new ShardedWriter({ dir, format: jsonl, columns: COLUMNS, maxRows: 2, maxBytes: Infinity });
    for (let id = 0; id < 3; id++) await writer.write({ id });
    await writer.finish();
    await writer.abort();
    expect(existsSync(join(dir, "data"))).toBe(false);
  });

  it("refuses a data/ folder that already holds shards of the split", async () => {
    const dir = freshDir();
    mkdirSync(join(dir, "data"), { recursive: true });
    writeFileSync(join(dir, "data", "train-00000-of-00001.jsonl"), "");
    const writer = new ShardedWriter({ dir, format: jsonl, columns: COLUMNS, maxRows: 2, maxBytes: Infinity });
    await expect(writer.write({ id: 1 })).rejects.toThrow(/already holds shards/);
  });

  it("rejects bad options", () => {
    const base = { dir: root, format: jsonl, columns: COLUMNS, maxRows: 1, maxBytes: 1 };
    expect(() => new ShardedWriter({ ...base, maxRows: 0 })).toThrow(ConfigError);
    expect(() => new ShardedWriter({ ...base, maxBytes: 1.5 })).toThrow(/maxBytes/);
    expect(() => new ShardedWriter({ ...base, split: "train/../x" })).toThrow(/split name/);
  });
});

/**
 * A format whose shards take a while to close, and can be told to fail. A close lasts until the next shard is
 * opened (or a second, for the last one), so that the order it records does not hang on the machine's load.
 */
function slowFormat(failOnClose: number | null) {
  const events: string[] = [];
  let opened = 0;
  const openings: (() => void)[] = [];
  const openedNext = (n: number) => new Promise<void>((resolve) => {
    openings[n + 1] = resolve;
    setTimeout(resolve, 1000);
  });
  const format: ShardFormat = {
    extension: ".txt",
    description: "test",
    async open(target) {
      const n = opened++;
      events.push(`open ${n}`);
      openings[n]?.();
      let rows = 0;
      const file = await fileWriterOf(target);
      const writer: ShardWriter = {
        get rows() {
          return rows;
        },
        async write() {
          rows += 1;
        },
        async close() {
          events.push(`close ${n} start`);
          await (opened > n + 1 ? new Promise((r) => setTimeout(r, 30)) : openedNext(n));
          if (n === failOnClose) throw new IoError(`close ${n} failed`, file.name);
          events.push(`close ${n} end`);
          return file.close();
        },
        async abort() {
          events.push(`abort ${n}`);
          await file.abort();
        },
      };
      return writer;
    },
    dispose: async () => undefined,
  };
  return { format, events };
}

describe("closing a full shard", () => {
  it("runs while the next shard fills, one close at a time", async () => {
    const { format, events } = slowFormat(null);
    await writeAll([{ id: 0 }, { id: 1 }, { id: 2 }], { format, maxRows: 1 });
    expect(events).toEqual(["open 0", "close 0 start", "open 1", "close 0 end", "close 1 start", "open 2", "close 1 end", "close 2 start", "close 2 end"]);
  });

  it("reports a failed close, and abort still cleans up", async () => {
    const { format } = slowFormat(0);
    const dir = freshDir();
    const writer = new ShardedWriter({ dir, format, columns: COLUMNS, maxRows: 1, maxBytes: Infinity });
    await writer.write({ id: 0 });
    await writer.write({ id: 1 });
    await expect(writer.write({ id: 2 })).rejects.toThrow("close 0 failed");
    await writer.abort();
    expect(existsSync(join(dir, "data"))).toBe(false);
  });
});
