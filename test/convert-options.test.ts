import { describe, expect, it } from "vitest";
import { resolveConvertOptions } from "../src/convert-options.js";

describe("resolveConvertOptions", () => {
  it("fills the documented defaults", () => {
    expect(resolveConvertOptions({ inputs: ["a"], out: "o" })).toMatchObject({
      to: "parquet",
      compression: "zstd",
      shardRows: 100_000,
      shardBytes: 512 * 1024 * 1024,
      maxQuarantined: 0.05,
      maxLineBytes: 64 * 1024 * 1024,
      acceptLaterMinor: false,
    });
  });

  it("rejects impossible values, naming them", () => {
    expect(() => resolveConvertOptions({ inputs: [], out: "o" })).toThrow(/No inputs/);
    expect(() => resolveConvertOptions({ inputs: ["a"], out: "" })).toThrow(/Output directory/);
    expect(() => resolveConvertOptions({ inputs: ["a"], out: "o", shardBytes: 1.5 })).toThrow(/shardBytes.*1\.5/);
    expect(() => resolveConvertOptions({ inputs: ["a"], out: "o", maxQuarantined: 2 })).toThrow(/maxQuarantined.*2/);
    expect(() => resolveConvertOptions({ inputs: ["a"], out: "o", to: "csv" as never })).toThrow(/"csv"/);
    expect(() => resolveConvertOptions({ inputs: ["a"], out: "o", to: "jsonl", compression: "snappy" })).toThrow(/"snappy" is not available for jsonl/);
  });
});
