import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WasmAudit } from "../../../../src/engines/parallel/fast/wasm-audit.js";
import { scanRegion, spareLine } from "../../../../src/engines/parallel/fast/wasm-scan.js";
import { BUILT_IN_CONTROL_TOKENS, BUILT_IN_NUMBERED_TOKENS } from "../../../../src/views/control-tokens.js";
import { utf8MayMatter } from "../../../../src/views/text-prefilter.js";
import { asciiJson } from "../../../helpers/ascii-json.js";
import { expectAudited } from "../../../helpers/audit-reference.js";
import { trickyText } from "../../../helpers/tricky-texts.js";

scanRegion(1 << 16);
const audit = new WasmAudit();

/** Each string literal of a JSON text: its quotes' indices. */
function literals(json: Buffer): [number, number][] {
  const found: [number, number][] = [];
  for (let i = 0; i < json.length; i++) {
    if (json[i] !== 0x22) continue;
    let close = i + 1;
    while (json[close] !== 0x22) close += json[close] === 0x5c ? 2 : 1;
    found.push([i, close]);
    i = close;
  }
  return found;
}

/** Values as a row group builder holds them: a u32 length, then the bytes. */
function column(values: readonly Buffer[]): Buffer {
  return Buffer.concat(values.flatMap((v) => [Buffer.from(new Uint32Array([v.length]).buffer), v]));
}

// The rule itself is held to its definition by test/views/text-prefilter.test.ts; here, a worker's runs of a
// column's values through it answer per value what it answers for each value alone (utf8MayMatter).

// Plain text around the tricky part, so that what the pass looks for falls anywhere in or out of its 16-byte steps.
const filler = fc.nat(40).map((n) => "plain words, no tokens here. ".repeat(3).slice(0, n));
const text = fc.tuple(filler, fc.oneof(trickyText, fc.string({ unit: "grapheme", maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 })), filler).map(([a, t, b]) => a + t + b);

describe("the text-audit prefilter over a worker's column", () => {
  it("flags a text holding any built-in control token, numbered ones too, wherever it falls in a 16-byte step", () => {
    const tokens = [...BUILT_IN_CONTROL_TOKENS, ...BUILT_IN_NUMBERED_TOKENS.map((t) => t.replace("{N}", "7"))];
    const values = tokens.flatMap((token) => [0, 5, 15, 17].map((pad) => Buffer.from(`${"x".repeat(pad)}${token}${"y".repeat(20)}`, "utf8")));
    const bytes = column(values);
    expect([...audit.texts(bytes, 0, bytes.length)]).toEqual(values.map(() => 1));
  });

  it("flags each text value of a run as it flags the value alone", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), (texts) => {
        const values = texts.map((t) => Buffer.from(t, "utf8"));
        const bytes = column(values);
        const flags = [...audit.texts(bytes, 0, bytes.length)];
        expect(audit.stop).toBe(bytes.length);
        expect(flags).toEqual(values.map((v) => (utf8MayMatter(v) ? 1 : 0)));
      }),
      { numRuns: 20_000, seed: 14 },
    );
  });

  it("flags a text where it lies in the module's memory (a walk's string) as it flags the text copied", () => {
    fc.assert(
      fc.property(text, (t) => {
        const bytes = Buffer.from(t, "utf8");
        const view = spareLine(bytes);
        if (view === null) throw new Error("the text does not fit the spare line area");
        expect(audit.inMemory(view, 0, view.length)).toBe(utf8MayMatter(bytes));
      }),
      { numRuns: 20_000, seed: 15 },
    );
    expect(audit.inMemory(Buffer.from("plain"), 0, 5)).toBeUndefined();
  });

  it("counts a JSON value's strings that are not keys and flags its literals as the reference does", () => {
    fc.assert(
      fc.property(text, text, text, (a, b, c) => {
        const value = `{"a":${JSON.stringify(a)}, "b" : [${asciiJson(b)},{"c":${JSON.stringify(c)},"n":1},${asciiJson(a + c)}],"d":null}`;
        const json = Buffer.from(value, "utf8");
        const bytes = column([json]);
        const words = [...audit.json(bytes, 0, bytes.length)];
        expect(audit.stop).toBe(bytes.length);
        expect(words[2]! + audit.shift).toBe(4);
        // Each pair is a literal of the value that is not a key (its quotes' offsets, after the length word).
        const values = literals(json).filter(([, close]) => json[close + 1] !== 0x3a && json.subarray(close + 1, close + 3).toString() !== " :");
        const pairs = words.slice(3).map((w) => w + audit.shift - 4);
        const texts: string[] = [];
        for (let k = 0; k < pairs.length; k += 2) {
          expect(values).toContainEqual([pairs[k], pairs[k + 1]! - 1]);
          texts.push(JSON.parse(json.toString("utf8", pairs[k], pairs[k + 1])) as string);
        }
        expect(words[1]).toBe(texts.length);
        expectAudited([value], { count: words[0]!, texts });
      }),
      { numRuns: 10_000, seed: 14 },
    );
  });

  it("tells a JSON value holding a lone surrogate's escape, as JSON.parse takes it", () => {
    const value = '{"a":"x\\ud800y","b":["plain","\\udc00"]}';
    const bytes = column([Buffer.from(value)]);
    const words = [...audit.json(bytes, 0, bytes.length)];
    expect(words.slice(0, 2)).toEqual([3, 2]);
    expectAudited([value], { count: 3, texts: ["x\ud800y", "\udc00"] });
  });

  it("leaves a JSON value with a key twice, or an escaped key, to JSON.parse", () => {
    const values = ['{"a":"x","a":"y"}', '{"a\\u0062":"x"}', '{"a":{"a":"x"},"b":"<|im_start|>"}'].map((v) => Buffer.from(v));
    const bytes = column(values);
    const words = [...audit.json(bytes, 0, bytes.length)].map((w, i) => (i === 2 || i === 5 || i >= 8 ? w + audit.shift : w));
    const second = 4 + values[0]!.length + 4;
    expect(words.slice(0, 6)).toEqual([-1, 0, 4, -1, 0, second]);
    expect(words.slice(6, 9)).toEqual([2, 1, second + values[1]!.length + 4]);
    const literal = bytes.indexOf('"<|im_start|>"');
    expect(words.slice(9)).toEqual([literal, literal + 14]);
  });

  it("takes as many whole values as fit its memory, and none bigger than it", () => {
    const values = Array.from({ length: 300 }, (_, i) => Buffer.from(`${"plain text ".repeat(20 + (i % 7))}${i % 50 === 0 ? "<|im_end|>" : ""}`));
    const bytes = column(values);
    const flags: number[] = [];
    for (let at = 0; at < bytes.length; at = audit.stop) {
      flags.push(...audit.texts(bytes, at, bytes.length));
      expect(audit.stop).toBeGreaterThan(at);
    }
    expect(bytes.length).toBeGreaterThan(1 << 16);
    expect(flags).toEqual(values.map((_, i) => (i % 50 === 0 ? 1 : 0)));
    const huge = column([Buffer.alloc(1 << 17, 0x61)]);
    expect(audit.texts(huge, 0, huge.length).length).toBe(0);
    expect(audit.stop).toBe(0);
    expect(audit.json(huge, 0, huge.length).length).toBe(0);
    expect(audit.stop).toBe(0);
  });
});
