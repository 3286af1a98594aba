import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UNVOUCHED } from "../../../../src/engines/parallel/fast/byte-cursor.js";
import { hasControlByte } from "../../../../src/engines/parallel/fast/has-control-byte.js";
import { JsonSkipper } from "../../../../src/engines/parallel/fast/json-skipper.js";
import { scanRegion, WASM_SCAN } from "../../../../src/engines/parallel/fast/wasm-scan.js";

/** The JSON skipper of the fast path, on whole lines. */
class LineSkipper extends JsonSkipper {
  /** The index after the value at the line's first byte, or null when it is not vouched for. */
  skip(line: Buffer): number | null {
    this.begin(line, !hasControlByte(line, 0, line.length));
    try {
      return this.skipJson(0);
    } catch (error) {
      if (error === UNVOUCHED) return null;
      throw error;
    }
  }
}

const region = scanRegion(1 << 16);
const skipper = new LineSkipper();

/** `text` as a line in the scan region (wasm scans), then a line end and bytes that would continue a value. */
function wasmSkip(text: Buffer, lineEnd = 0x0a): number | null {
  const at = 7; // not word-aligned
  region.set(text, at);
  region[at + text.length] = lineEnd;
  region.set(Buffer.from('1]}"e5'), at + text.length + 1);
  return skipper.skip(region.subarray(at, at + text.length));
}

/** The same line in a buffer of its own (JS scans). */
const jsSkip = (text: Buffer): number | null => skipper.skip(Buffer.from(text));

/** Every object key in a parsed JSON value. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  return [];
}

/** Random damage to a JSON text: bytes inserted, dropped or replaced, favouring ones that matter to JSON. */
const damaged = fc
  .tuple(fc.json({ maxDepth: 4 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom(..."\"\\{}[],:0-.eE+u\u0001 \rtfn"), fc.constantFrom("insert", "drop", "replace")), { maxLength: 4 }))
  .map(([json, edits]) => {
    let text = json;
    for (const [at, c, kind] of edits) {
      const i = text.length === 0 ? 0 : at % text.length;
      text = kind === "insert" ? text.slice(0, i) + c + text.slice(i) : kind === "drop" ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + c + text.slice(i + 1);
    }
    return Buffer.from(text);
  });

describe("the wasm scan module (src/engines/parallel/wasm/scan.ts)", () => {
  it("is built, and a region makes it this thread's scanner", () => {
    expect(region.buffer).toBe(WASM_SCAN.buffer);
    expect(region.length).toBe((1 << 16) + 1);
  });

  it("finds control bytes exactly where the JS test does", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const copy = Buffer.from(bytes.map((x) => (x < 0x20 && x % 7 !== 0 ? x + 0x20 : x))); // control bytes rarer
        const start = copy.length === 0 ? 0 : a % copy.length;
        const end = start + (copy.length - start === 0 ? 0 : b % (copy.length - start + 1));
        region.set(copy, 3);
        expect(hasControlByte(region as Buffer, 3 + start, 3 + end)).toBe(hasControlByte(copy, start, end));
      }),
      { numRuns: 2000 },
    );
  });

  it("never accepts a value the JS skipper refuses, nor ends it elsewhere (damaged JSON)", () => {
    let accepted = 0;
    fc.assert(
      fc.property(damaged, (text) => {
        const wasm = wasmSkip(text);
        if (wasm !== null) {
          accepted++;
          expect(jsSkip(text), text.toString()).toBe(wasm);
        }
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it("accepts what the JS skipper accepts, but for numbers that may not be finite", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 5 }), (json) => {
        const text = Buffer.from(json);
        const declinable = keysOf(JSON.parse(json)).includes("__proto__") || /[eE]\+?(?:[3-9]\d\d|\d{4})/.test(json);
        if (declinable) return;
        expect(wasmSkip(text), json).toBe(jsSkip(text));
        const spaced = Buffer.from(JSON.stringify(JSON.parse(json), null, "\t").replaceAll("\n", "\r\n"));
        expect(wasmSkip(spaced), spaced.toString()).toBe(jsSkip(spaced));
      }),
      { numRuns: 3000 },
    );
  });

  it("nests up to 512 open containers, as the JS skipper", () => {
    const nested = (n: number): Buffer => Buffer.from(`${"[".repeat(n)}1${"]".repeat(n)}`);
    expect(wasmSkip(nested(512))).toBe(1025);
    expect(jsSkip(nested(512))).toBe(1025);
    expect(wasmSkip(nested(513))).toBeNull();
  });

  it.each([
    ['"\\ud83d\\ude00"', 14],
    ['"\\ud83d"', null],
    ['"\\ude00x"', null],
    ['"\\ud83d\\u0041"', null],
    ['{"__proto__":1}', null],
    ['{"__proto_":1}', 14],
    ['{"a\\u0062":1}', 13],
    ['{"\\u005f_proto__":1}', null],
    ['{"__p\\roto__":1}', 16],
    ["1e400", null],
    ["9.9e307", 7],
    ["99e307", null], // 9.9e308: not finite
    ["10e307", null], // 1e308: finite, but past what the module checks, so the line takes the slow path
    ["1e-400", 6],
    ["-0.5E+2", 7],
    ["01", 1],
    ["[1,]", null],
    ["[1", null],
    ["tru", null],
    ['"a\tb"', null],
    ['"abcdefghijklmnopqrstuvwxyz"', 28],
    ['["abcdefghijklmnopqrstuvwxyz\\n", {"k": [true, false, null]} ]', 61],
  ])("skips %s to %s", (json, end) => {
    const text = Buffer.from(json);
    expect(wasmSkip(text)).toBe(end);
    expect(wasmSkip(text, 0)).toBe(end); // the batch's last line: a 0 after it
    if (end !== null) expect(jsSkip(text)).toBe(end);
  });

  // Last: it gives the thread a new region, so the ones above no longer go to the module.
  it("reads a token that ends the batch without running off the module's memory", () => {
    const capacity = 2 * 65536 - 1; // the region and the 0 after it end on a page boundary
    const last = scanRegion(capacity);
    for (const line of ["[t", "[fals", "[nul", '{"a":tru']) {
      const text = Buffer.from(line);
      last.set(text, capacity - text.length);
      last[capacity] = 0;
      expect(skipper.skip(last.subarray(capacity - text.length, capacity)), line).toBeNull();
    }
  });
});
