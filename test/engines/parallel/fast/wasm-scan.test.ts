import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanRegion, WASM_SCAN } from "../../../../src/engines/parallel/fast/wasm-scan.js";

const region = scanRegion(1 << 16);

/**
 * The module's skipValue over `text` as a line in the scan region, then a line end and bytes that would
 * continue a value: the index after the value, or null when it declines.
 */
function wasmSkip(text: Buffer, lineEnd = 0x0a): number | null {
  const at = 7; // not word-aligned
  region.set(text, at);
  region[at + text.length] = lineEnd;
  region.set(Buffer.from('1]}"e5'), at + text.length + 1);
  const base = region.byteOffset + at;
  const end = WASM_SCAN.exports.skipValue(base, base + text.length);
  return end === 0 ? null : end - base;
}

/** Whether a string holds a surrogate escape without its pair (zod's JSON refuses one). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What `z.json()` accepts after JSON.parse: finite numbers, no `__proto__` key, no lone surrogate. */
function zodJson(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value === "string") return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(zodJson);
  if (value !== null && typeof value === "object") return Object.entries(value).every(([k, v]) => k !== "__proto__" && !LONE_SURROGATE.test(k) && zodJson(v));
  return true;
}

/** `text` as JSON.parse and zod's JSON take it: the value, or undefined when either refuses it. */
function parsed(text: string): { value: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return zodJson(value) ? { value } : undefined;
  } catch {
    return undefined;
  }
}

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

  it("never accepts a value JSON.parse or zod refuses, nor ends it elsewhere (damaged JSON)", () => {
    let accepted = 0;
    fc.assert(
      fc.property(damaged, (text) => {
        const end = wasmSkip(text);
        if (end === null) return;
        accepted++;
        const line = text.toString();
        // The value it passed is one, and a number is not cut short: its next byte (not a blank) would not continue it.
        const value = parsed(text.subarray(0, end).toString());
        expect(value, line).toBeDefined();
        const next = text[end];
        if (typeof value?.value === "number" && next !== undefined && ![0x20, 0x09, 0x0a, 0x0d].includes(next)) expect(parsed(text.subarray(0, end + 1).toString()), line).toBeUndefined();
        if (text.subarray(end).toString().trim() === "") expect(parsed(line), line).toBeDefined();
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it("accepts what JSON.parse and zod accept, but numbers that may not be finite", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 5 }), (json) => {
        const text = Buffer.from(json);
        const declinable = keysOf(JSON.parse(json)).includes("__proto__") || /[eE]\+?(?:[3-9]\d\d|\d{4})/.test(json);
        if (declinable) return;
        expect(wasmSkip(text), json).toBe(text.length);
        const spaced = Buffer.from(JSON.stringify(JSON.parse(json), null, "\t").replaceAll("\n", "\r\n"));
        expect(wasmSkip(spaced), spaced.toString()).toBe(spaced.length);
      }),
      { numRuns: 3000 },
    );
  });

  it("nests up to 512 open containers", () => {
    const nested = (n: number): Buffer => Buffer.from(`${"[".repeat(n)}1${"]".repeat(n)}`);
    expect(wasmSkip(nested(512))).toBe(1025);
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
    if (end === text.length) expect(parsed(json)).toBeDefined();
  });

  // Last: it gives the thread a new region, so the ones above no longer go to the module.
  it("reads a token that ends the batch without running off the module's memory", () => {
    const capacity = 2 * 65536 - 1; // the region and the 0 after it end on a page boundary
    const last = scanRegion(capacity);
    for (const line of ["[t", "[fals", "[nul", '{"a":tru']) {
      const text = Buffer.from(line);
      last.set(text, capacity - text.length);
      last[capacity] = 0;
      const base = last.byteOffset + capacity - text.length;
      expect(WASM_SCAN.exports.skipValue(base, base + text.length), line).toBe(0);
    }
  });
});
