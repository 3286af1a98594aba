import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseExact, stringifyExact } from "../../src/core/exact-json.js";

// parseExact is JSON.parse except for an integer beyond 2^53 at `scenario.seed`, which it keeps as a bigint.
describe("parseExact and stringifyExact", () => {
  it("agree with JSON.parse on any JSON text without a seed, big integers and strings of digits included (property)", () => {
    const big = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((n) => ({ big: n.toString() }));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: "small" }, fc.jsonValue({ maxDepth: 1 }), big, fc.array(tie("v"), { maxLength: 4 }), fc.dictionary(fc.string(), tie("v"), { maxKeys: 4 })),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        // Big integers as number literals, which JSON.stringify cannot write itself.
        const text = JSON.stringify(v).replace(/\{"big":"(-?\d+)"\}/g, "$1");
        expect(parseExact(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a seed beyond 2^53 exactly, and only there; writes it back as digits", () => {
    const text = '{"__proto__":{"seed":9007199254740993},"scenario":{"campaign_id":"9007199254740993","seed":9007199254740993},"n":9007199254740993,"s":"1234567890123456789"}';
    const parsed = parseExact(text) as Record<string, unknown>;
    expect((parsed.scenario as { seed: unknown }).seed).toBe(9007199254740993n);
    expect(parsed.n).toBe(JSON.parse(text).n);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(stringifyExact(parsed)).toBe(text.replace('"n":9007199254740993', `"n":${JSON.parse(text).n}`).replace('"__proto__":{"seed":9007199254740993}', `"__proto__":{"seed":${JSON.parse(text).n}}`));
  });

  it("leaves a line with a \\u0000 escape to JSON.parse (a mark could be the input's own text)", () => {
    const text = '{"scenario":{"seed":9007199254740993},"t":"\\u0000evalshard-int:5"}';
    expect(parseExact(text)).toEqual(JSON.parse(text));
  });
});
