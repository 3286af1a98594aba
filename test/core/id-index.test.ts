import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdIndex } from "../../src/core/id-index.js";

/** Adds `ids` in order; checks each gets the number a Map of strings would give it. */
function indexed(ids: readonly string[]): IdIndex {
  const index = new IdIndex();
  const map = new Map<string, number>();
  for (const id of ids) {
    expect(index.indexOf(id)).toBe(map.get(id) ?? -1);
    if (!map.has(id)) map.set(id, map.size);
    expect(index.add(id)).toBe(map.get(id));
  }
  expect(index.size).toBe(map.size);
  for (const [id, n] of map) {
    expect(index.indexOf(id)).toBe(n);
    expect(index.id(n)).toBe(id);
  }
  return index;
}

describe("IdIndex: opaque ids numbered in the order first added", () => {
  it("gives every id back as it was added: ASCII, non-ASCII, lone surrogates, the empty string", () => {
    indexed(["run_01", "", "r\u00e9sum\u00e9", "\ud83d\ude00", "\ud800", "a\udc00b", "\udfff\ud800", "\u0000", "\u007f\u0080", "run_01", "", "\ud800"]);
  });

  it("tells an ASCII id from a non-ASCII one with the same bytes (00 01 as latin1 and as UTF-16)", () => {
    const index = indexed(["\u0000\u0001", "\u0100", "\u0001\u0000", "\u0001"]);
    expect(index.indexOf("\u0100")).toBe(1);
    expect(index.id(0)).toBe("\u0000\u0001");
    expect(index.id(1)).toBe("\u0100");
  });

  it("crosses to a worker as plain data (structured clone) with every id's number kept", () => {
    const ids = ["run_01", "", "r\u00e9sum\u00e9", "\ud800", "\u0000\u0001", "\u0100"];
    const copy = IdIndex.of(structuredClone(indexed(ids).toData()));
    expect(copy.size).toBe(ids.length);
    for (const [n, id] of ids.entries()) expect([copy.indexOf(id), copy.id(n)]).toEqual([n, id]);
    expect(IdIndex.of(new IdIndex().toData()).size).toBe(0);
  });

  it("answers -1 for an id never added, near misses included", () => {
    const index = indexed(["run_1", "run_10", "\u00e9"]);
    for (const id of ["run_", "run_100", "Run_1", "run_1 ", "\u00e9\u00e9", "\u00c3\u00a9", "e", ""]) expect(index.indexOf(id)).toBe(-1);
    expect(index.size).toBe(3);
  });

  it("numbers ids exactly as a Map of strings would (property)", () => {
    const id = fc.oneof(fc.string({ unit: fc.constantFrom("a", "\u0000", "\u0001", "\u0100", "\u00e9", "\ud800", "\udc00"), maxLength: 5 }), fc.string({ unit: "binary", maxLength: 30 }));
    fc.assert(
      fc.property(fc.array(id, { maxLength: 2000 }), (ids) => {
        indexed(ids);
      }),
      { numRuns: 40 },
    );
  });

  it("keeps its numbers past the first capacities, and ids longer than its first buffer", () => {
    const ids = Array.from({ length: 150_000 }, (_, i) => (i % 5 === 0 ? `r\u00fcn-${i}` : `run-${i.toString(36)}`));
    ids.push("x".repeat(5000), "\u00e9".repeat(3000), "\ud800".repeat(2000));
    const index = new IdIndex();
    ids.forEach((id, n) => expect(index.add(id)).toBe(n));
    expect(index.size).toBe(ids.length);
    ids.forEach((id, n) => {
      expect(index.add(id)).toBe(n);
      expect(index.indexOf(id)).toBe(n);
      expect(index.id(n)).toBe(id);
    });
    expect(index.size).toBe(ids.length);
  });
});
