import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { compileLineParser } from "../../../../src/engines/parallel/fast/compile-line-parser.js";
import type { LineParser } from "../../../../src/engines/parallel/fast/compile-line-parser.js";
import { scanRegion, spareLine, WASM_SCAN } from "../../../../src/engines/parallel/fast/wasm-scan.js";
import { rl } from "../../../../src/formats/rl.js";
import { sft } from "../../../../src/formats/sft.js";
import { resolveUntrustedPolicy } from "../../../../src/stages/untrusted-policy.js";
import { rlRecord, sftRecord } from "../../../helpers/records.js";
import { columnsOf, recorders } from "./helpers/recording-writer.js";

// A worker's batch is walked where it lies in the scan module's memory; any other line is copied into its
// spare line first. The differential tests check the walk against zod on generated and mutated records; these
// cover what they do not reach: the walk's own limits, the spare line, and several parsers sharing a thread.

// Not helpers/differential.js's allUntrusted: importing that module makes a scan region.
const every = (action: string) => Object.fromEntries(sft.untrustedPaths.map((p) => [p, action]));
const SFT_KEEP = compileLineParser(sft, resolveUntrustedPolicy(sft, every("keep")));
const SFT_REDACT = compileLineParser(sft, resolveUntrustedPolicy(sft, every("redact")));
const RL = compileLineParser(rl, resolveUntrustedPolicy(rl, {}));

describe("spareLine", () => {
  it("gives a thread without a scan region a small one, where the line is copied", () => {
    expect(WASM_SCAN.walk.spareBytes).toBe(0);
    const line = Buffer.from("{}");
    const spare = spareLine(line);
    expect(spare?.buffer).toBe(WASM_SCAN.buffer);
    expect(spare?.equals(line)).toBe(true);
  });
});

/** This thread's scan region, made by the first test that walks (after the one that needs there to be none). */
let made: Buffer | null = null;
const region = (): Buffer => (made ??= scanRegion(1 << 20));

/** The parser's answer for `line` in a buffer of its own (copied into the spare line) and in the scan region (as a batch's). */
function bothWalks(parser: LineParser, line: string) {
  const bytes = Buffer.from(line);
  const types = parser.plan.leaves.map((l) => l.type);
  const ownOut = recorders(types.length);
  const own = parser.parse(bytes, 0, bytes.length, ownOut);
  region().set(bytes);
  region()[bytes.length] = 0x0a;
  const batchOut = recorders(types.length);
  const batch = parser.parse(region(), 0, bytes.length, batchOut);
  return { own, batch, ownColumns: columnsOf(ownOut, types), batchColumns: columnsOf(batchOut, types) };
}

describe("the wasm walk", () => {
  it("gives one skeleton and the same entries wherever the line lies, for parsers that take turns on one thread (each loads its own table)", () => {
    for (let round = 0; round < 2; round++) {
      for (const [parser, line] of [
        [SFT_KEEP, JSON.stringify(sftRecord())],
        [SFT_REDACT, JSON.stringify(sftRecord())],
        [RL, JSON.stringify(rlRecord())],
      ] as const) {
        const { own, batch, ownColumns, batchColumns } = bothWalks(parser, line);
        expect(batch).not.toBeNull();
        expect(own).toEqual(batch);
        expect(ownColumns).toEqual(batchColumns);
      }
    }
  });

  it("declines a line whose tape would not fit, or too long for the spare line (the slow path takes it)", () => {
    // 16 bytes of tape per string of 4 bytes of line: ~3.7 MB of tape, past the 3 MiB a 1 MiB region gets.
    const evidence = Array.from({ length: 230_000 }, () => "a");
    const line = JSON.stringify(sftRecord({ scores: { per_trait: { honesty: { mean: 1, variance: 0, evidence } }, win_conditions: [], outcomes: { met_count: 0, total_checks: 0, total_actions: 0 } } }));
    expect(line.length).toBeLessThan(region().length);
    const { own, batch } = bothWalks(SFT_KEEP, line);
    expect(own).toBeNull();
    expect(batch).toBeNull();
  });

  it("declines a map with more keys than its duplicate check holds (8,192)", () => {
    const traits = (n: number) => sftRecord({ scores: { per_trait: Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, { mean: 1, variance: 0, evidence: [] }])), win_conditions: [], outcomes: { met_count: 0, total_checks: 0, total_actions: 0 } } });
    expect(bothWalks(SFT_KEEP, JSON.stringify(traits(9_000))).batch).toBeNull();
    const walked = bothWalks(SFT_KEEP, JSON.stringify(traits(8_000))).batch as { scores: { per_trait: object } } | null;
    expect(Object.keys(walked?.scores.per_trait ?? {})).toHaveLength(8_000);
  });

  it("takes a line copied to the spare line as it takes a batch's, up to the spare line's size", () => {
    region();
    const line = Buffer.from(JSON.stringify(sftRecord()));
    const spare = spareLine(line);
    expect(spare?.buffer).toBe(WASM_SCAN.buffer);
    expect(spare?.equals(line)).toBe(true);
    const types = SFT_KEEP.plan.leaves.map((l) => l.type);
    const out = recorders(types.length);
    const skeleton = SFT_KEEP.parse(spare as Buffer, 0, line.length, out);
    const { batch, batchColumns } = bothWalks(SFT_KEEP, line.toString());
    expect(skeleton).toEqual(batch);
    expect(columnsOf(out, types)).toEqual(batchColumns);
    expect(spareLine(Buffer.alloc(1 << 20))?.length).toBe(1 << 20);
    expect(spareLine(Buffer.alloc((1 << 20) + 1))).toBeNull();
  });
});
