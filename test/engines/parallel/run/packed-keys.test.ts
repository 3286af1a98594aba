import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PackedKeysWriter } from "../../../../src/engines/parallel/run/packed-keys.js";

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

  it("starts over after done, and what done gave stays as it was", () => {
    const writer = new PackedKeysWriter();
    for (const k of ["a", "ünï", "b".repeat(20_000)]) writer.add(k);
    const first = writer.done();
    const firstCopy = { bytes: Buffer.from(first.bytes), ends: [...first.ends] };
    writer.add("zz");
    const second = writer.done();
    expect([...second.ends]).toEqual([2]);
    expect(Buffer.from(second.bytes).toString()).toBe("zz");
    expect(Buffer.from(first.bytes)).toEqual(firstCopy.bytes);
    expect([...first.ends]).toEqual(firstCopy.ends);
    expect(writer.done().ends.length).toBe(0);
  });
});
