import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeyIndex } from "../../src/parallel/key-index.js";

describe("KeyIndex: distinct strings numbered in the order added", () => {
  it("numbers keys exactly as a Map would, whatever the keys (property)", () => {
    // A small alphabet makes repeats, equal hashes' neighbours and prefixes of each other likely.
    const key = fc.oneof(fc.string({ unit: fc.constantFrom("a", "b", "\u00e9", "\ud83d\ude00", "\u0000"), maxLength: 6 }), fc.string({ maxLength: 40 }));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 3000 }), (keys) => {
        const index = new KeyIndex();
        const map = new Map<string, number>();
        for (const k of keys) {
          expect(index.get(k)).toBe(map.get(k) ?? -1);
          if (!map.has(k)) map.set(k, map.size);
          expect(index.add(k)).toBe(map.get(k));
        }
        expect(index.size).toBe(map.size);
        for (const [k, n] of map) expect(index.get(k)).toBe(n);
      }),
      { numRuns: 60 },
    );
  });

  it("holds a run's worth of keys (past every growth step) and tells near-misses apart", () => {
    const index = new KeyIndex();
    const key = (i: number) => JSON.stringify([`run_${i.toString(16).padStart(20, "0")}`, i % 4]);
    for (let i = 0; i < 200_000; i++) expect(index.add(key(i))).toBe(i);
    expect(index.size).toBe(200_000);
    for (let i = 0; i < 200_000; i += 997) expect(index.get(key(i))).toBe(i);
    expect(index.get(JSON.stringify(["run_00000000000000000001", 2]))).toBe(-1);
    expect(index.get(key(5).slice(0, -1))).toBe(-1);
  });
});
