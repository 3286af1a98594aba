import { describe, expect, it } from "vitest";
import { ColumnBuffer } from "../../src/parquet/column-buffer.js";
import type { Leaf, LeafType } from "../../src/parquet/column-plan.js";

const leaf = (type: LeafType, maxDef = 1, maxRep = 0): Leaf => ({ index: 0, path: ["x"], type, maxDef, maxRep });
const valuesOf = (c: ColumnBuffer): number[] => [...c.values.subarray(0, c.valueBytes)];
const le64 = (lo: number, hi: number): number[] => [...new Uint8Array(new Uint32Array([lo, hi]).buffer)];

describe("values are stored in their PLAIN encoding", () => {
  it("BYTE_ARRAY: a 4-byte little-endian length, then UTF-8", () => {
    const c = new ColumnBuffer(leaf("string"));
    c.text("é", 0);
    c.text("", 0);
    c.bytes(Uint8Array.from([9, 0x61, 0x62, 9]), 1, 3, 0);
    expect(valuesOf(c)).toEqual([2, 0, 0, 0, 0xc3, 0xa9, 0, 0, 0, 0, 2, 0, 0, 0, 0x61, 0x62]);
  });

  it("BYTE_ARRAY text: ASCII, non-ASCII, emoji and long strings alike, lone surrogates as U+FFFD", () => {
    const texts = ["ascii", "Zoë 🚀 日本語", "x".repeat(100), "🚀".repeat(40), "a\ud800b"];
    const c = new ColumnBuffer(leaf("string"), 1);
    for (const t of texts) c.text(t, 0);
    const expected = texts.flatMap((t) => {
      const b = Buffer.from(t.replace("\ud800", "\ufffd"));
      return [...new Uint8Array(new Uint32Array([b.length]).buffer), ...b];
    });
    expect(valuesOf(c)).toEqual(expected);
  });

  it("BYTE_ARRAY bytes: long ranges are copied too", () => {
    const src = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
    const c = new ColumnBuffer(leaf("json"), 1);
    c.bytes(src, 10, 210, 0);
    expect(valuesOf(c)).toEqual([200, 0, 0, 0, ...src.subarray(10, 210)]);
  });

  it("BYTE_ARRAY bytes: every length and offset, from sources that are views into larger buffers and alternate", () => {
    // Short ranges go four bytes a step with a byte tail, long ones through a view: each length across that
    // line and every alignment, with the source switching each time (the view of the last source is cached).
    const backing = Uint8Array.from({ length: 1024 }, (_, i) => (i * 37 + 11) & 0xff);
    const sources = [new Uint8Array(backing.buffer, 3, 600), Buffer.from(backing.buffer, 17, 700), backing];
    const c = new ColumnBuffer(leaf("json"), 1);
    const expected: number[] = [];
    let k = 0;
    for (let n = 0; n <= 140; n++) {
      for (let start = 0; start < 8; start++, k++) {
        const src = sources[k % sources.length] as Uint8Array;
        c.bytes(src, start, start + n, 0);
        expected.push(...new Uint8Array(new Uint32Array([n]).buffer), ...src.subarray(start, start + n));
      }
    }
    expect(valuesOf(c)).toEqual(expected);
  });

  it("INT64: 8 bytes little-endian two's complement, exact to ±(2^53 - 1)", () => {
    const c = new ColumnBuffer(leaf("int64"));
    for (const v of [0, 1, -1, 2 ** 32, -(2 ** 32), 2 ** 53 - 1, -(2 ** 53 - 1), -0]) c.int64(v, 0);
    expect(valuesOf(c)).toEqual([
      ...le64(0, 0),
      ...le64(1, 0),
      ...le64(0xffffffff, 0xffffffff),
      ...le64(0, 1),
      ...le64(0, 0xffffffff),
      ...le64(0xffffffff, 0x1fffff),
      ...le64(1, 0xffe00000),
      ...le64(0, 0),
    ]);
    const view = new DataView(c.values.buffer, c.values.byteOffset);
    expect([0, 8, 16, 40, 48].map((at) => view.getBigInt64(at, true))).toEqual([0n, 1n, -1n, 2n ** 53n - 1n, -(2n ** 53n - 1n)]);
  });

  it("DOUBLE: 8 bytes little-endian IEEE 754, -0 kept", () => {
    const c = new ColumnBuffer(leaf("float64"));
    c.float64(-0, 0);
    c.float64(1.5, 0);
    expect(valuesOf(c)).toEqual([0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f]);
  });

  it("BOOLEAN: one 0/1 byte per value until the page is encoded", () => {
    const c = new ColumnBuffer(leaf("bool"));
    c.bool(true, 0);
    c.bool(false, 0);
    expect(valuesOf(c)).toEqual([1, 0]);
  });
});

describe("levels and counts", () => {
  it("record a definition and repetition level per call and a value only when present", () => {
    const c = new ColumnBuffer(leaf("string", 3, 1));
    c.text("a", 0);
    c.missing(2, 1);
    c.text("b", 1);
    c.missing(0, 0);
    expect([...c.defs.subarray(0, c.entries)]).toEqual([3, 2, 3, 0]);
    expect([...c.reps.subarray(0, c.entries)]).toEqual([0, 1, 1, 0]);
    expect({ entries: c.entries, values: c.valueCount, nulls: c.nullCount }).toEqual({ entries: 4, values: 2, nulls: 2 });
  });

  it("do not store repetition levels when the max is 0", () => {
    const c = new ColumnBuffer(leaf("int64", 2, 0));
    c.int64(5, 0);
    c.missing(1, 0);
    expect(c.reps).toHaveLength(0);
    expect([...c.defs.subarray(0, 2)]).toEqual([2, 1]);
  });

  it("grow by doubling without losing anything", () => {
    const c = new ColumnBuffer(leaf("string", 2, 1), 1);
    for (let i = 0; i < 5000; i++) {
      if (i % 3 === 0) c.missing(1, i % 2);
      else c.text(String(i), i % 2);
    }
    expect(c.entries).toBe(5000);
    expect(c.valueCount).toBe(3333);
    let at = 0;
    for (let i = 0; i < 5000; i++) {
      expect(c.defs[i]).toBe(i % 3 === 0 ? 1 : 2);
      expect(c.reps[i]).toBe(i % 2);
      if (i % 3 === 0) continue;
      const n = c.view.getUint32(at, true);
      expect(c.values.toString("utf8", at + 4, at + 4 + n)).toBe(String(i));
      at += 4 + n;
    }
  });

  it("roll back to the last mark, and clear everything", () => {
    const c = new ColumnBuffer(leaf("string", 1, 0));
    c.text("keep", 0);
    c.mark();
    c.text("drop", 0);
    c.missing(0, 0);
    c.rollback();
    expect({ entries: c.entries, values: c.valueCount, bytes: c.valueBytes }).toEqual({ entries: 1, values: 1, bytes: 8 });
    c.clear();
    expect({ entries: c.entries, values: c.valueCount, bytes: c.valueBytes }).toEqual({ entries: 0, values: 0, bytes: 0 });
  });

  it("refuse levels deeper than a byte holds", () => {
    expect(() => new ColumnBuffer(leaf("string", 256, 0))).toThrow(/255/);
  });
});

describe("repeatLast copies the entry written last, as if it were written again", () => {
  /** The levels, counts and value bytes of a column, without its first `skip` entries (which hold no value). */
  const state = (c: ColumnBuffer, skip: number) => ({
    entries: c.entries - skip,
    values: c.valueCount,
    defs: [...c.defs.subarray(skip, c.entries)],
    reps: [...c.reps.subarray(skip, c.entries)],
    data: valuesOf(c),
  });

  const cases: [string, LeafType, (c: ColumnBuffer) => void][] = [
    ["a short string", "string", (c) => c.text("run_1", 0)],
    ["an empty string (a value of 4 bytes)", "string", (c) => c.text("", 1)],
    ["a long string", "string", (c) => c.text("é".repeat(300), 0)],
    ["an integer", "int64", (c) => c.int64(-7, 0)],
    ["a boolean (1 byte a value)", "bool", (c) => c.bool(true, 1)],
    ["a null (levels only)", "string", (c) => c.missing(1, 0)],
  ];
  for (const [name, type, write] of cases) {
    it(`${name}: 0 to 200 more times, the column growing on the way`, () => {
      for (const times of [0, 1, 2, 3, 17, 200]) {
        const repeated = new ColumnBuffer(leaf(type, 2, 1), 1);
        // An entry before it, so the value does not begin at 0.
        repeated.missing(0, 0);
        const from = repeated.valueBytes;
        write(repeated);
        repeated.repeatLast(times, from);
        const expected = new ColumnBuffer(leaf(type, 2, 1), 1);
        for (let k = 0; k <= times; k++) write(expected);
        expect(state(repeated, 1), `${name} x${times}`).toEqual(state(expected, 0));
      }
    });
  }
});
