import fc from "fast-check";

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

/**
 * JSON texts for the JSON.stringify-form checks: with whitespace, escapes, odd numbers, duplicate and
 * index-like keys, non-ASCII, and literals long enough for the wasm module's 16-byte steps, with a quote or an
 * escape anywhere in or across them. A few are not JSON (`07`, a lone surrogate's escape).
 */
export const formTexts: fc.Arbitrary<string> = fc.tuple(value.any as fc.Arbitrary<string>, fc.boolean()).map(([t, space]) => (space ? t.replace(/,/g, ", ") : t));
