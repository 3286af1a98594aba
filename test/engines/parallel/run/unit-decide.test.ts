import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileParserSchema } from "../../../../src/engines/parallel/fast/compile-line-parser.js";
import type { WorkerConfig } from "../../../../src/engines/parallel/run/protocol.js";
import { UnitConverter } from "../../../../src/engines/parallel/run/unit-converter.js";
import { formatByName } from "../../../../src/formats/index.js";
import { filterSettings } from "../../../../src/stages/filter.js";
import { SELECT_DEFAULTS } from "../../../../src/stages/select-plan.js";
import { outputColumns, resolveUntrustedPolicy } from "../../../../src/stages/untrusted-policy.js";

// Main sends a worker, per unit, which rows to keep and how many rows each shard segment takes. The two must
// agree split by split (and so in total): a disagreement is a bug in main, and encoding anyway would move
// rows between segments or splits, or lose them.
const format = formatByName("sft");
const policy = resolveUntrustedPolicy(format, {});
const config: WorkerConfig = { format: "sft", forced: false, acceptLaterMinor: false, filters: filterSettings(), selection: SELECT_DEFAULTS, gateBy: "seat", gates: null, scores: null, codec: "zstd", lines: false, maxLineBytes: 1 << 20, columns: outputColumns(format, policy), schema: compileParserSchema(format, policy), view: null, split: null, textAudit: null, topKeys: null, rankSchema: null, suites: null };
const lines = Buffer.from(readFileSync("fixtures/records/sft-valid.ndjson"));

async function unitOfRows(): Promise<{ converter: UnitConverter; rows: number }> {
  const converter = new UnitConverter(config);
  const slot = Buffer.from(new SharedArrayBuffer(lines.length));
  slot.set(lines);
  const outcomes = await converter.batch(0, 0, converter.local(slot));
  return { converter, rows: outcomes.columns?.rowBytes.length ?? 0 };
}

describe("UnitConverter.decide", () => {
  it("encodes when the kept rows and the segments agree", async () => {
    const { converter, rows } = await unitOfRows();
    expect(rows).toBeGreaterThanOrEqual(2);
    const encoded = await converter.decide(0, new Uint8Array(rows).fill(1), [rows - 1, 1]);
    expect(encoded.groups.map((g) => g.rows)).toEqual([rows - 1, 1]);
  });

  it("throws when the segments hold fewer rows than main keeps, instead of losing the rest", async () => {
    const { converter, rows } = await unitOfRows();
    await expect(async () => converter.decide(0, new Uint8Array(rows).fill(1), [rows - 1])).rejects.toThrow(`split 0 keeps ${rows} rows, main's segments hold ${rows - 1}`);
  });

  it("throws when a dropped row leaves the segments one row too many", async () => {
    const { converter, rows } = await unitOfRows();
    const keep = new Uint8Array(rows).fill(1);
    keep[1] = 0;
    await expect(async () => converter.decide(0, keep, [rows])).rejects.toThrow(`keeps ${rows - 1} rows, main's segments hold ${rows}`);
  });
});
