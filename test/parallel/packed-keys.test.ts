import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PackedKeysWriter } from "../../src/parallel/packed-keys.js";

describe("PackedKeysWriter: keys as UTF-8 back to back", () => {
  it("gives back every key, in order, whatever their sizes (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 30 }), fc.string({ maxLength: 5000 })), { maxLength: 400 }), (keys) => {
        const writer = new PackedKeysWriter();
        for (const k of keys) writer.add(k);
        const { bytes, ends } = writer.done();
        expect(ends.length).toBe(keys.length);
        const back = [...ends].map((end, i) => Buffer.from(bytes.subarray(i === 0 ? 0 : (ends[i - 1] as number), end)).toString("utf8"));
        expect(back).toEqual(keys);
      }),
      { numRuns: 80 },
    );
  });
});
