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

// Where a worker's batches go through the wasm walk and every other line through the JS walker; the
// differential tests compare the two on generated and mutated records. These cover what they do not reach:
// the walk's own limits, the spare line, and several parsers sharing a thread.

// Not helpers/differential.js's allUntrusted: importing that module makes a scan region.
const every = (action: string) => Object.fromEntries(sft.untrustedPaths.map((p) => [p, action]));
const SFT_KEEP = compileLineParser(sft, resolveUntrustedPolicy(sft, every("keep")));
const SFT_REDACT = compileLineParser(sft, resolveUntrustedPolicy(sft, every("redact")));
const RL = compileLineParser(rl, resolveUntrustedPolicy(rl, {}));

describe("spareLine", () => {
  it("is null on a thread without a scan region", () => {
    expect(spareLine(Buffer.from("{}"))).toBeNull();
  });
});

/** This thread's scan region, made by the first test that walks (after the one that needs there to be none). */
let made: Buffer | null = null;
const region = (): Buffer => (made ??= scanRegion(1 << 20));

/** The parser's answer for `line` in a buffer of its own (the JS walker) and in the scan region (the wasm walk). */
function bothWalks(parser: LineParser, line: string) {
  const bytes = Buffer.from(line);
  const types = parser.plan.leaves.map((l) => l.type);
  const jsOut = recorders(types.length);
  const js = parser.parse(bytes, 0, bytes.length, jsOut);
  region().set(bytes);
  region()[bytes.length] = 0x0a;
  const wasmOut = recorders(types.length);
  const wasm = parser.parse(region(), 0, bytes.length, wasmOut);
  return { js, wasm, jsColumns: columnsOf(jsOut, types), wasmColumns: columnsOf(wasmOut, types) };
}

describe("the wasm walk", () => {
  it("gives the JS walker's skeleton and entries, for parsers that take turns on one thread (each loads its own table)", () => {
    for (let round = 0; round < 2; round++) {
      for (const [parser, line] of [
        [SFT_KEEP, JSON.stringify(sftRecord())],
        [SFT_REDACT, JSON.stringify(sftRecord())],
        [RL, JSON.stringify(rlRecord())],
      ] as const) {
        const { js, wasm, jsColumns, wasmColumns } = bothWalks(parser, line);
        expect(js).not.toBeNull();
        expect(wasm).toEqual(js);
        expect(wasmColumns).toEqual(jsColumns);
      }
    }
  });

  it("declines a line whose tape would not fit (the slow path takes it), where the JS walker vouches", () => {
    // 16 bytes of tape per string of 4 bytes of line: ~3.7 MB of tape, past the 3 MiB a 1 MiB region gets.
    const evidence = Array.from({ length: 230_000 }, () => "a");
    const line = JSON.stringify(sftRecord({ scores: { per_trait: { honesty: { mean: 1, variance: 0, evidence } }, win_conditions: [], outcomes: { met_count: 0, total_checks: 0, total_actions: 0 } } }));
    expect(line.length).toBeLessThan(region().length);
    const { js, wasm } = bothWalks(SFT_KEEP, line);
    expect(js).not.toBeNull();
    expect(wasm).toBeNull();
  });

  it("declines a map with more keys than its duplicate check holds (8,192)", () => {
    const traits = (n: number) => sftRecord({ scores: { per_trait: Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, { mean: 1, variance: 0, evidence: [] }])), win_conditions: [], outcomes: { met_count: 0, total_checks: 0, total_actions: 0 } } });
    const { js, wasm } = bothWalks(SFT_KEEP, JSON.stringify(traits(9_000)));
    expect(js).not.toBeNull();
    expect(wasm).toBeNull();
    const walked = bothWalks(SFT_KEEP, JSON.stringify(traits(8_000)));
    expect(walked.wasm).toEqual(walked.js);
    expect(walked.wasmColumns).toEqual(walked.jsColumns);
  });

  it("takes a line copied to the spare line as it takes a batch's", () => {
    region();
    const line = Buffer.from(JSON.stringify(sftRecord()));
    const spare = spareLine(line);
    expect(spare?.buffer).toBe(WASM_SCAN.buffer);
    expect(spare?.equals(line)).toBe(true);
    const types = SFT_KEEP.plan.leaves.map((l) => l.type);
    const out = recorders(types.length);
    const skeleton = SFT_KEEP.parse(spare as Buffer, 0, line.length, out);
    const { js, jsColumns } = bothWalks(SFT_KEEP, line.toString());
    expect(skeleton).toEqual(js);
    expect(columnsOf(out, types)).toEqual(jsColumns);
    expect(spareLine(Buffer.alloc(256 << 10))).toBeNull();
  });
});
