import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, zstdDecompressSync as decompress } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ConfigError, IoError } from "../../src/core/errors.js";
import { FORMATS } from "../../src/formats/index.js";
import { jsonlFormat } from "../../src/sinks/jsonl-format.js";
import type { JsonlCompression } from "../../src/sinks/jsonl-format.js";
import { tabularRow } from "../../src/sinks/tabular-row.js";
import { sftRecord } from "../helpers/records.js";
import { tempDir } from "../helpers/temp-dir.js";

const root = tempDir("evalshard-jsonl-");
const COLUMNS = FORMATS.sft.columns;
const decode: Record<JsonlCompression, (b: Buffer) => Buffer> = { none: (b) => b, gzip: gunzipSync, zstd: (b) => decompress(b) };

describe.each(["none", "gzip", "zstd"] as const)("JSONL with compression %s", (compression) => {
  const format = jsonlFormat({ compression });

  it("names files and describes itself after the compression", () => {
    expect(format.extension).toBe({ none: ".jsonl", gzip: ".jsonl.gz", zstd: ".jsonl.zst" }[compression]);
    expect(format.description).toBe(`jsonl/${compression}`);
  });

  it("writes one line per record, in order, through backpressure", async () => {
    const path = join(root, `many${format.extension}`);
    const writer = await format.open(path, COLUMNS);
    // ~40 MB of text: far past every stream buffer, so writes have to wait for drains.
    const records = Array.from({ length: 3000 }, (_, i) => sftRecord({ run_id: `run-${i}`, coaching: { weak_traits: [], guidance: `${i} ${"g".repeat(13_000)}` } }));
    for (const r of records) await writer.write(r);
    await writer.close();
    const lines = decode[compression](readFileSync(path)).toString("utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBe(records.length);
    lines.forEach((line, i) => expect(line).toBe(JSON.stringify(tabularRow(COLUMNS, records[i] as Record<string, unknown>))));
    expect(writer.rows).toBe(records.length);
  });

  it("writes an empty but valid file for zero records", async () => {
    const path = join(root, `empty${format.extension}`);
    const writer = await format.open(path, COLUMNS);
    await writer.close();
    expect(decode[compression](readFileSync(path)).length).toBe(0);
  });

  it("keeps what JSON keeps: unicode, lone surrogates (escaped), NUL", async () => {
    const path = join(root, `unicode${format.extension}`);
    const writer = await format.open(path, COLUMNS);
    const record = sftRecord({ run_id: "Zoë 🚀 \ud800 \u0000 \u2028" });
    await writer.write(record);
    await writer.close();
    expect(JSON.parse(decode[compression](readFileSync(path)).toString("utf8")).run_id).toBe(record.run_id);
  });

  it("removes the file on abort", async () => {
    const dir = join(root, `abort-${compression}`);
    mkdirSync(dir);
    const writer = await format.open(join(dir, `x${format.extension}`), COLUMNS);
    await writer.write(sftRecord());
    await writer.abort();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses writes after close", async () => {
    const writer = await format.open(join(root, `closed${format.extension}`), COLUMNS);
    await writer.close();
    await expect(writer.write(sftRecord())).rejects.toThrow(IoError);
  });
});

describe("JSONL errors", () => {
  it("fails to open with an IoError where the file cannot be created", async () => {
    await expect(jsonlFormat({ compression: "gzip" }).open(join(root, "missing", "x.jsonl.gz"), COLUMNS)).rejects.toThrow(IoError);
  });

  it("shapes each line as the Parquet row: every column in order, maps as {key, value} lists, json as text", async () => {
    const path = join(root, "shaped.jsonl");
    const writer = await jsonlFormat({ compression: "none" }).open(path, COLUMNS);
    const record = sftRecord({ trace_steps: [{ turn: 1 }, "two"] }) as Record<string, unknown>;
    delete record.manifest;
    await writer.write(record);
    await writer.close();
    const row = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    expect(Object.keys(row)).toEqual(COLUMNS.map((f) => f.name));
    expect(row.manifest).toBeNull();
    expect(row.trace_steps).toEqual(['{"turn":1}', '"two"']);
    const perTrait = (record.scores as { per_trait: Record<string, unknown> }).per_trait;
    expect((row.scores as { per_trait: unknown }).per_trait).toEqual(Object.entries(perTrait).map(([key, value]) => ({ key, value })));
    expect(Object.keys(perTrait).length).toBeGreaterThan(0);
  });

  it("rejects an unknown compression", () => {
    expect(() => jsonlFormat({ compression: "brotli" as "gzip" })).toThrow(ConfigError);
  });
});
