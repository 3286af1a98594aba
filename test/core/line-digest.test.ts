import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineDigest } from "../../src/core/line-digest.js";
import { lineDigestOf } from "../../src/engines/parallel/fast/wasm-digest.js";
import { scanRegion } from "../../src/engines/parallel/fast/wasm-scan.js";

const region = scanRegion(1 << 16);

describe("the line digest that tells conflicting copies apart", () => {
  it("is the same function in the wasm module (a worker's batch) as in JS (the stages engine)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(31), (bytes, shift) => {
        region.set(bytes, shift);
        const inModule = region.subarray(0, shift + bytes.length);
        expect(inModule.buffer).not.toBe(bytes.buffer);
        expect(lineDigestOf(inModule, shift, shift + bytes.length)).toBe(lineDigest(bytes));
        expect(lineDigestOf(bytes, 0, bytes.length)).toBe(lineDigest(bytes));
      }),
      { numRuns: 5000, seed: 20 },
    );
    const long = Buffer.from("x".repeat(40_000) + "y");
    region.set(long);
    expect(lineDigestOf(region, 0, long.length)).toBe(lineDigest(long));
  });

  it("differs for lines one byte apart, or of another length, and keeps the length's low 16 bits", () => {
    const line = Buffer.from(`{"run_id":"run-001","scorecard_version":1,"text":"${"the same words ".repeat(9)}"}`);
    const digests = new Set([lineDigest(line), lineDigest(line, 0, line.length - 1), lineDigest(Buffer.concat([line, Buffer.from(" ")]))]);
    for (let i = 0; i < line.length; i++) {
      for (const bit of [0x01, 0x20, 0x80]) {
        const copy = Buffer.from(line);
        copy[i] = (copy[i] as number) ^ bit;
        digests.add(lineDigest(copy));
      }
    }
    expect(digests.size).toBe(3 + 3 * line.length);
    expect(lineDigest(line) % 65536).toBe(line.length & 0xffff);
    expect(Number.isSafeInteger(lineDigest(line))).toBe(true);
  });
});
