import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isStringifyForm } from "../../src/views/is-stringify-form.js";

// rl-steps writes an observation's JSON text as the walker read it when `isStringifyForm` says it is already what
// JSON.stringify(JSON.parse(text)) gives; its column must hold the same bytes as when it stringified every one.
const bytes = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));
const stringified = (text: string) => JSON.stringify(JSON.parse(text)) === text;

describe("isStringifyForm", () => {
  it("says yes only of texts JSON.stringify gives back unchanged, on any JSON text", () => {
    // JSON texts with whitespace, escapes, odd numbers, duplicate and index-like keys, non-ASCII and control characters.
    const key = fc.oneof(fc.constantFrom("a", "b", "0", "1", "10", "__proto__", "é", "a\nb", "", "\u2028"), fc.string({ maxLength: 3 }));
    const value = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("list"), tie("object")),
      leaf: fc.oneof(
        fc.constantFrom("null", "true", "false", "0", "-0", "1", "-1", "1.5", "1.50", "1e3", "1E3", "1e+21", "1e21", "0.1", "1e-7", "123456789012345", "1234567890123456789", "9007199254740993", "-12", "5e-324"),
        fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
        fc.string({ unit: "binary", maxLength: 6 }).map((s) => JSON.stringify(s)),
        fc.constantFrom('"\\/"', '"\\u0041"', '"\\u001f"', '"\\u001F"', '"\\u000a"', '"\\n"', '"\\ud800"', '"\\ud83d\\ude00"', '"\\b\\f\\r\\t"', '"\\u0000"', '"\u007f"'),
      ),
      list: fc.array(tie("any"), { maxLength: 3 }).map((xs) => `[${xs.join(",")}]`),
      object: fc.array(fc.tuple(key, tie("any")), { maxLength: 3 }).map((kvs) => `{${kvs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
    }));
    const spaced = fc.tuple(value.any as fc.Arbitrary<string>, fc.boolean()).map(([t, space]) => (space ? t.replace(/,/g, ", ") : t));
    fc.assert(
      fc.property(spaced, (text) => {
        if (isStringifyForm(bytes(text))) expect(JSON.stringify(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 20_000, seed: 18 },
    );
  });

  it("says yes of what JSON.stringify writes, keys neither starting with a digit nor written with escapes", () => {
    const json = fc.jsonValue().map((v) => JSON.stringify(v, (_k, x: unknown) => (x !== null && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).filter(([k]) => !/^[0-9]/.test(k) && JSON.stringify(k) === `"${k}"`)) : x)));
    fc.assert(
      fc.property(json, (text) => {
        expect(stringified(text)).toBe(true);
        expect(isStringifyForm(bytes(text))).toBe(true);
      }),
      { numRuns: 5_000, seed: 18 },
    );
  });

  it("says no of whitespace, other spellings, duplicate or index-like keys and invalid UTF-8", () => {
    for (const text of ['{"a": 1}', '{"a":1.0}', '{"a":"\\/"}', '{"a":"\\u0041"}', '{"a":1,"a":2}', '{"1":1,"a":2}', "-0", "1E3", '"\\u000A"']) {
      expect(isStringifyForm(bytes(text)), text).toBe(false);
    }
    expect(isStringifyForm(new Uint8Array([0x22, 0xff, 0x22]))).toBe(false);
    for (const text of ['{"turn":0,"location":"gate","inventory":[],"visible_seats":[1],"status":"naïve"}', '"\\u001f\\n"', "1e+21", "-1.5", "[]", "{}", '{"a":{"a":1},"b":{"a":2}}']) {
      expect(isStringifyForm(bytes(text)), text).toBe(true);
    }
  });
});
