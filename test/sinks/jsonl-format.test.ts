import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decompress } from "zstd-napi";
import { ConfigError, IoError } from "../../src/core/errors.js";
import { FORMATS } from "../../src/formats/index.js";
import { jsonlFormat } from "../../src/sinks/jsonl-format.js";
import type { JsonlCompression } from "../../src/sinks/jsonl-format.js";
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

  it("writes one JSON.stringify line per record, in order, through backpressure", async () => {
    const path = join(root, `many${format.extension}`);
    const writer = await format.open(path, COLUMNS);
    // ~40 MB of text: far past every stream buffer, so writes have to wait for drains.
    const records = Array.from({ length: 3000 }, (_, i) => sftRecord({ run_id: `run-${i}`, coaching: { weak_traits: [], guidance: `${i} ${"g".repeat(13_000)}` } }));
    for (const r of records) await writer.write(r);
    await writer.close();
    const lines = decode[compression](readFileSync(path)).toString("utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBe(records.length);
    lines.forEach((line, i) => expect(line).toBe(JSON.stringify(records[i])));
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
    expect(JSON.parse(decode[compression](readFileSync(path)).toString("utf8"))).toEqual(record);
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

  it("uses the caller's JSON text when given", async () => {
    const path = join(root, "given.jsonl");
    const writer = await jsonlFormat({ compression: "none" }).open(path, COLUMNS);
    await writer.write({ a: 1 }, '{"a":1}');
    await writer.close();
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n');
  });

  it("rejects an unknown compression", () => {
    expect(() => jsonlFormat({ compression: "brotli" as "gzip" })).toThrow(ConfigError);
  });
});
