import { describe, expect, it } from "vitest";
import { resolvePlan } from "../../src/plan/resolve-plan.js";

// Was test/convert-options.test.ts (resolveConvertOptions): the same defaults and faults, through resolvePlan.
describe("resolvePlan", () => {
  it("fills the documented defaults", () => {
    expect(resolvePlan("convert", { inputs: ["a"], out: "o" })).toMatchObject({
      shards: { to: "parquet", compression: "zstd", rotation: { kind: "size", maxRows: 100_000, maxBytes: 512 * 1024 * 1024 } },
      guards: { maxQuarantined: 0.05, maxLineBytes: 64 * 1024 * 1024 },
      acceptLaterMinor: false,
    });
  });

  it("rejects impossible values, naming them", () => {
    expect(() => resolvePlan("convert", { inputs: [], out: "o" })).toThrow(/No inputs/);
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "" })).toThrow(/Output directory/);
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", shardBytes: 1.5 })).toThrow(/shardBytes.*1\.5/);
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", maxQuarantined: 2 })).toThrow(/maxQuarantined.*2/);
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", to: "csv" as never })).toThrow(/"csv"/);
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", to: "jsonl", compression: "snappy" })).toThrow(/"snappy" is not available for jsonl/);
  });

  it("states the format as forced or detected, every filter rule, and the room for a view and a split", () => {
    const detected = resolvePlan("convert", { inputs: ["a"], out: "o", filters: { flagged: false } });
    expect(detected.format).toEqual({ detect: true });
    expect(detected.filters).toEqual({ flagged: false, unscored: true, no_trace: true, no_pairs: true, participation_gated: true });
    expect(detected.view).toBeUndefined();
    expect(detected.split).toBeUndefined();
    expect(resolvePlan("validate", { inputs: ["a"], format: "rl" }).format).toEqual({ forced: "rl" });
    expect(() => resolvePlan("validate", { inputs: ["a"], format: "ppo" as never })).toThrow(/format.*"ppo"/);
  });

  it("rejects a bad untrusted action in a library call, naming it", () => {
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", untrusted: { "coaching.guidance": "shred" } })).toThrow(/Unknown untrusted policy "shred" for "coaching.guidance"/);
  });
});
