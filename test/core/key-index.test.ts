import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeyIndex } from "../../src/core/key-index.js";

/** The key's UTF-8 at a random place in a larger buffer, as keys sit in a worker's packed batch. */
function placed(key: string, pad: number): [Uint8Array, number, number] {
  const bytes = Buffer.from(key);
  const buffer = new Uint8Array(pad + bytes.length + 3).fill(0x7b);
  buffer.set(bytes, pad);
  return [buffer, pad, pad + bytes.length];
}

describe("KeyIndex: distinct byte strings numbered in the order added", () => {
  it("numbers keys exactly as a Map of their strings would (property)", () => {
    // A small alphabet makes repeats, shared prefixes and keys that are prefixes of others likely.
    const key = fc.oneof(fc.string({ unit: fc.constantFrom("a", "b", "\u00e9", "\ud83d\ude00", "\u0000", "{"), maxLength: 6 }), fc.string({ unit: "grapheme", maxLength: 40 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.nat(5)), { maxLength: 3000 }), (keys) => {
        const index = new KeyIndex();
        const map = new Map<string, number>();
        for (const [k, pad] of keys) {
          expect(index.get(...placed(k, pad))).toBe(map.get(k) ?? -1);
          if (!map.has(k)) map.set(k, map.size);
          expect(index.add(...placed(k, pad))).toBe(map.get(k));
        }
        expect(index.size).toBe(map.size);
        for (const [k, n] of map) {
          expect(index.get(...placed(k, 0))).toBe(n);
          expect(Buffer.from(index.key(n)).toString()).toBe(k);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("holds a run's worth of keys (past every growth step) and tells near-misses apart", () => {
    const index = new KeyIndex();
    const key = (i: number) => JSON.stringify([`run_${i.toString(16).padStart(20, "0")}`, i % 4]);
    for (let i = 0; i < 200_000; i++) expect(index.add(...placed(key(i), i % 3))).toBe(i);
    expect(index.size).toBe(200_000);
    for (let i = 0; i < 200_000; i += 997) expect(index.get(...placed(key(i), 1))).toBe(i);
    expect(index.get(...placed(JSON.stringify(["run_00000000000000000001", 2]), 0))).toBe(-1);
    expect(index.get(...placed(key(5).slice(0, -1), 0))).toBe(-1);
  });

  it("keeps keys longer than an arena chunk, and the keys around them", () => {
    const index = new KeyIndex();
    const long = "k".repeat(1_500_000);
    const keys = ["a", long, "b", `${long}x`, "c".repeat(1_048_000), "d".repeat(2000)];
    keys.forEach((k, n) => expect(index.add(...placed(k, n))).toBe(n));
    keys.forEach((k, n) => expect(index.get(...placed(k, 2))).toBe(n));
    expect(index.get(...placed(long.slice(1), 0))).toBe(-1);
    keys.forEach((k, n) => expect(Buffer.from(index.key(n)).toString()).toBe(k));
  });

  it("gives key n's bytes back, and refuses a number it never gave", () => {
    const index = new KeyIndex();
    index.add(...placed("", 1));
    index.add(...placed("ab", 2));
    expect([...index.key(0)]).toEqual([]);
    expect([...index.key(1)]).toEqual([0x61, 0x62]);
    for (const n of [-1, 2, 0.5, Number.NaN]) expect(() => index.key(n)).toThrow(RangeError);
  });

  it("holds memory in proportion to its keys: no growth step allocates a multiple of what is used", () => {
    const index = new KeyIndex();
    const key = (i: number) => JSON.stringify([`run_${i.toString(16).padStart(20, "0")}`, 0]);
    let keyBytes = 0;
    for (let i = 0; i < 100_000; i++) {
      const [bytes, start, end] = placed(key(i), 0);
      keyBytes += end - start;
      index.add(bytes, start, end);
    }
    // Key bytes, 16 bytes of position and length a key, a table at most a quarter full (16 bytes a key), and
    // one partly used chunk each: ~7.5 MB here, where arrays grown eightfold held ~9 MB.
    expect(index.bytesHeld).toBeLessThan(keyBytes + 32 * 100_000 + (1 << 20) + 2 * 65_536);
  });
});

