import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineDigest } from "../../src/core/line-digest.js";
import { lineDigestOf } from "../../src/engines/parallel/fast/wasm-digest.js";
import { scanRegion } from "../../src/engines/parallel/fast/wasm-scan.js";

const region = scanRegion(1 << 16);

describe("the line digest that tells conflicting copies apart", () => {
  it("is the digest the JS hash gave before it was collapsed into the module's (same dedup outcomes, same bytes)", () => {
    const lines = ["", "a", "abcd", "x".repeat(31), "y".repeat(32), "z".repeat(33), '{"run_id":"run-001","scorecard_version":1}', "é€😀".repeat(50), "q".repeat(70000)];
    // Printed by src/core/line-digest.ts's JS lineHash (xxHash32's round over eight lanes) before session 24.
    const before = [148332611764224, 139128440094721, 73149783932932, 29002965712927, 211931778318368, 161153056964641, 118526901157930, 166229651554754, 259367190008176];
    expect(lines.map((line) => lineDigest(Buffer.from(line)))).toEqual(before);
  });

  it("is the same hashed where a worker's batch lies (the scan region) as copied into the digest's own instance", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(31), (bytes, shift) => {
        region.set(bytes, shift);
        const inModule = region.subarray(0, shift + bytes.length);
        expect(inModule.buffer).not.toBe(bytes.buffer);
        expect(lineDigestOf(inModule, shift, shift + bytes.length)).toBe(lineDigest(bytes));
        expect(lineDigestOf(bytes, 0, bytes.length)).toBe(lineDigest(bytes));
      }),
      { numRuns: 2000, seed: 20 },
    );
    // A line past the digest instance's first memory, which it is remade for.
    const long = Buffer.from("x".repeat(400_000) + "y");
    const padded = Buffer.concat([Buffer.from("pad"), long]);
    expect(lineDigest(padded, 3)).toBe(lineDigest(long));
    region.set(long.subarray(0, 40_000));
    expect(lineDigestOf(region, 0, 40_000)).toBe(lineDigest(long, 0, 40_000));
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
