import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parquetMetadata } from "hyparquet";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/convert.js";
import { MIN_UNIT_BYTES, UNIT_BYTES, unitBytesFor } from "../../src/parallel/unit-bytes.js";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";

const MiB = 1 << 20;

describe("unitBytesFor: units shrink near the end of the input", () => {
  it("is a full unit while much is left, or when the size is unknown", () => {
    expect(unitBytesFor(Infinity, 2)).toBe(UNIT_BYTES);
    expect(unitBytesFor(1024 * MiB, 2)).toBe(UNIT_BYTES);
    expect(unitBytesFor(4 * UNIT_BYTES, 2)).toBe(UNIT_BYTES);
  });

  it("is what is left over twice the workers near the end, never under the minimum", () => {
    expect(unitBytesFor(20 * MiB, 2)).toBe(5 * MiB);
    expect(unitBytesFor(8 * MiB, 2)).toBe(2 * MiB);
    expect(unitBytesFor(10 * MiB, 1)).toBe(5 * MiB);
    expect(unitBytesFor(3 * MiB, 2)).toBe(MIN_UNIT_BYTES);
    expect(unitBytesFor(0, 2)).toBe(MIN_UNIT_BYTES);
    expect(unitBytesFor(-5, 2)).toBe(MIN_UNIT_BYTES);
  });

  it("takes the rest when it would leave less than a minimum unit behind", () => {
    expect(unitBytesFor(2 * MiB, 2)).toBe(2 * MiB);
    expect(unitBytesFor(MIN_UNIT_BYTES + 1, 2)).toBe(MIN_UNIT_BYTES + 1);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 * MiB }), fc.integer({ min: 1, max: 8 }), (left, workers) => {
        const size = unitBytesFor(left, workers);
        expect(size).toBeGreaterThanOrEqual(MIN_UNIT_BYTES);
        expect(size).toBeLessThanOrEqual(Math.max(UNIT_BYTES, 2 * MIN_UNIT_BYTES));
        expect(left - size <= 0 || left - size >= MIN_UNIT_BYTES).toBe(true);
      }),
    );
  });
});

describe("the parallel engine cuts the end of a plain file into small units", () => {
  const dir = tempDir("evalshard-unit-bytes-");

  it("writes one row group per unit: the first 4 MiB read, then ~1 MiB units, for a 9 MiB file; the rows all there", async () => {
    const lines = readFileSync(`${FIXTURES}records/sft-valid.ndjson`, "utf8").trim().split("\n");
    const out: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes < 9 * MiB; i++) {
      const record = JSON.parse(lines[i % lines.length] as string) as Record<string, unknown>;
      const line = JSON.stringify({ ...record, run_id: `run-${i}` });
      out.push(line);
      bytes += line.length + 1;
    }
    const file = join(dir, "sft.ndjson");
    writeFileSync(file, `${out.join("\n")}\n`);
    const { manifest } = await convert({ inputs: [file], out: join(dir, "out"), engine: "parallel", workers: 2 });
    expect(manifest.records_in).toBe(out.length);
    const shards = readdirSync(join(dir, "out", "data")).filter((f) => f.endsWith(".parquet"));
    expect(shards).toHaveLength(1);
    const shard = readFileSync(join(dir, "out", "data", shards[0] as string));
    const meta = parquetMetadata(shard.buffer.slice(shard.byteOffset, shard.byteOffset + shard.byteLength));
    // Before units shrank near the end, this file made two units: 8 MiB, then the rest.
    expect(meta.row_groups.length).toBeGreaterThanOrEqual(4);
    // None is a sliver: the last unit takes in what would be too little for one of its own.
    for (const group of meta.row_groups) expect(Number(group.num_rows)).toBeGreaterThan(20);
    expect(meta.row_groups.reduce((n, g) => n + Number(g.num_rows), 0)).toBe(manifest.records_out);
  });
});
