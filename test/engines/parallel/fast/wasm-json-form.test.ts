import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonFormOf } from "../../../../src/engines/parallel/fast/wasm-json-form.js";
import { scanRegion, spareLine, WASM_SCAN } from "../../../../src/engines/parallel/fast/wasm-scan.js";
import { isStringifyForm } from "../../../../src/views/is-stringify-form.js";

scanRegion(1 << 16);

/** The text in the module's memory (its spare line area), as a walk leaves a line. */
function inModule(text: string): Buffer {
  const view = spareLine(Buffer.from(text, "utf8"));
  if (view === null) throw new Error("the text does not fit the spare line area");
  return view;
}

// JSON texts with whitespace, escapes, odd numbers, duplicate and index-like keys, non-ASCII, and literals long
// enough for the module's 16-byte steps, with a quote or an escape anywhere in or across them.
const filler = fc.nat(40).map((n) => "plain words, no stops here at all. ".repeat(2).slice(0, n));
const key = fc.oneof(fc.constantFrom("a", "b", "0", "1", "10", "__proto__", "é", "a\nb", "", "\u2028", "long key of twenty+ bytes"), fc.string({ maxLength: 3 }));
const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("leaf"), tie("list"), tie("object")),
  leaf: fc.oneof(
    fc.constantFrom("null", "true", "false", "0", "-0", "1", "-1", "07", "1.5", "1.50", "1e3", "1E3", "1e+21", "0.1", "1e-7", "123456789012345", "1234567890123456", "9007199254740993", "-12", "5e-324"),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
    fc.tuple(filler, fc.string({ unit: "grapheme", maxLength: 6 }), filler).map(([a, s, b]) => JSON.stringify(a + s + b)),
    fc.tuple(filler, fc.constantFrom("\\/", "\\u0041", "\\u001f", "\\u001F", "\\u000a", "\\n", "\\ud800", "\\b\\f\\r\\t", "\\u0000", "\\\"", "\\\\", "\u007f", "é"), filler).map(([a, e, b]) => `"${a}${e}${b}"`),
  ),
  list: fc.array(tie("any"), { maxLength: 3 }).map((xs) => `[${xs.join(",")}]`),
  object: fc.array(fc.tuple(key, tie("any")), { maxLength: 4 }).map((kvs) => `{${kvs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
}));
const json = fc.tuple(value.any as fc.Arbitrary<string>, fc.boolean()).map(([t, space]) => (space ? t.replace(/,/g, ", ") : t));

describe("the wasm module's JSON.stringify-form check (rl-steps' observations)", () => {
  it("answers as isStringifyForm wherever it answers, and jsonFormOf always does", () => {
    let answered = 0;
    fc.assert(
      fc.property(json, (text) => {
        const view = inModule(text);
        const expected = isStringifyForm(view, 0, view.length, true);
        const answer = WASM_SCAN.exports.jsonForm(view.byteOffset, view.byteOffset + view.length);
        expect([0, 1, 2]).toContain(answer);
        if (answer !== 2) {
          answered++;
          expect(answer === 1, text).toBe(expected);
        }
        expect(jsonFormOf(view, 0, view.length), text).toBe(expected);
        if (expected) expect(JSON.stringify(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 20_000, seed: 15 },
    );
    // Most texts are the module's to tell: those whose numbers are all short integers.
    expect(answered).toBeGreaterThan(10_000);
  });

  it("says yes of an observation as the export writes it, no of other spellings, and leaves other numbers to JS", () => {
    const answer = (text: string) => {
      const view = inModule(text);
      return WASM_SCAN.exports.jsonForm(view.byteOffset, view.byteOffset + view.length);
    };
    expect(answer('{"turn":12,"location":"gate","inventory":["map","seal"],"visible_seats":[0,2],"status":"a long status text, naïve and plain, past sixteen bytes"}')).toBe(1);
    for (const text of ['{"a": 1}', '{"a":"\\/"}', '{"a":"\\u0041"}', '{"a":1,"a":2}', '{"b":{"a":1,"a":2}}', '{"1":1}', '{"a\\n":1}', '"\\u000A"', '"\\u000a"']) expect(answer(text), text).toBe(0);
    for (const text of ['{"a":{"a":1},"b":{"a":2}}', '[{"a":1},{"a":1}]', "{}", "[]", '"\\u001f\\n"', "0", "-12"]) expect(answer(text), text).toBe(1);
    for (const text of ["1.5", "-0", "1e3", '{"a":[1,2.5]}', "1234567890123456", "07"]) expect(answer(text), text).toBe(2);
  });

  it("is JS's check for bytes outside the module's memory", () => {
    const text = '{"a": 1}';
    expect(jsonFormOf(Buffer.from(text), 0, text.length)).toBe(false);
    expect(jsonFormOf(Buffer.from('{"a":1.5}'), 0, 9)).toBe(true);
  });
});
