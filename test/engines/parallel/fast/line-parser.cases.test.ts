import { describe, expect, it } from "vitest";
import { dpo } from "../../../../src/formats/dpo.js";
import { rl } from "../../../../src/formats/rl.js";
import { sft } from "../../../../src/formats/sft.js";
import { dpoRecord, rlRecord, rlTuple, sftRecord } from "../../../helpers/records.js";
import { allUntrusted, differential, subject } from "./helpers/differential.js";
import type { Subject } from "./helpers/differential.js";
import { recorders } from "./helpers/recording-writer.js";

const SFT = subject(sft);
const SFT_KEEP = subject(sft, allUntrusted(sft, "keep"), "keep");
const RL = subject(rl);
const DPO = subject(dpo);

const HOLE = "\u0000hole\u0000";

/** The JSON of `record` with the value at `path` replaced by `raw`, written verbatim. */
function withRaw(record: object, path: readonly (string | number)[], raw: string): string {
  const copy = structuredClone(record) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = HOLE;
  return JSON.stringify(copy).replace(JSON.stringify(HOLE), raw);
}

/** Checks the line against the slow path on `s` and that the fast path vouches for it exactly when `vouched`. */
async function expectLine(s: Subject, line: string, vouched: boolean): Promise<void> {
  expect(await differential(s, line), line.length > 300 ? `${line.slice(0, 300)}…` : line).toBe(vouched);
}

const sftLine = JSON.stringify(sftRecord());

describe("numbers: exact JSON grammar, and exactly what zod accepts after JSON.parse's rounding", () => {
  const int = ["scorecard_version"];
  const seed = ["scenario", "seed"];
  const mean = ["scores", "per_trait", "persuasion", "mean"];
  const cases: [string, readonly string[], string, boolean][] = [
    ["1.0 is an integer", int, "1.0", true],
    ["1e0 and 1E+0 are integers", int, "1E+0", true],
    ["-0 is an integer >= 0 (zod's min is inclusive; the value stays -0)", int, "-0", true],
    ["-1 is below .min(0)", int, "-1", false],
    ["1.5 is not an integer", int, "1.5", false],
    ["the largest safe integer", seed, "9007199254740991", true],
    ["9007199254740993 rounds to 2^53, which .int() refuses as unsafe", seed, "9007199254740993", false],
    ["1e21 is integral but unsafe", seed, "1e21", false],
    ["a leading zero", int, "01", false],
    ["a plus sign", int, "+1", false],
    ["a bare dot", mean, "1.", false],
    ["a leading dot", mean, ".5", false],
    ["an empty exponent", mean, "1e", false],
    ["hex", mean, "0x10", false],
    ["NaN", mean, "NaN", false],
    ["Infinity", mean, "Infinity", false],
    ["1e400 parses to Infinity, which z.number() refuses", mean, "1e400", false],
    ["-1e400 likewise", mean, "-1e400", false],
    ["1.8e308 overflows too", mean, "1.8e308", false],
    ["the largest double", mean, "1.7976931348623157e308", true],
    ["1e-400 underflows to 0", mean, "1e-400", true],
    ["the smallest subnormal", mean, "5e-324", true],
    ["-0 as a float", mean, "-0.0", true],
    ["9007199254740993 as a float rounds like JSON.parse", mean, "9007199254740993", true],
    ["many digits", mean, "123456789012345678901234567890.123456789e-5", true],
    ["0.1e1", mean, "0.1e1", true],
    ["0.30000000000000004", mean, "0.30000000000000004", true],
  ];
  for (const [name, path, raw, vouched] of cases) it(`${name}: ${raw}`, () => expectLine(SFT, withRaw(sftRecord(), path, raw), vouched));

  it("inside JSON-typed values: JSON grammar, finite numbers", async () => {
    for (const [raw, vouched] of [["[1.0,-0,1e2,0.5e-3]", true], ["[1e400]", false], ["[01]", false], ["[1.]", false], ["[-]", false]] as const) {
      await expectLine(SFT_KEEP, withRaw(sftRecord(), ["transcript"], raw), vouched);
      await expectLine(SFT, withRaw(sftRecord(), ["trace_steps"], raw), vouched);
    }
  });
});

describe("strings", () => {
  const runId = ["run_id"];
  const cases: [string, string, boolean][] = [
    ["escapes are decoded", '"a\\nb\\t\\u00e9\\"\\\\\\/c"', true],
    ["raw unicode is copied", '"naïve 日本 😀"', true],
    ["an escaped surrogate pair (an emoji)", '"x\\ud83d\\ude00y"', true],
    ["upper-case hex", '"\\u00E9\\uD83D\\uDE00"', true],
    ["a lone high surrogate", '"x\\ud800y"', false],
    ["a lone low surrogate", '"x\\udc00y"', false],
    ["a high surrogate before a non-surrogate escape", '"\\ud800\\u0041"', false],
    ["a raw control character", '"a\u0001b"', false],
    ["a raw tab", '"a\tb"', false],
    ["an unknown escape", '"a\\xb"', false],
    ["a short \\u escape", '"a\\u12"', false],
    ["an unterminated string", '"abc', false],
    ["a number where a string belongs", "12", false],
  ];
  for (const [name, raw, vouched] of cases) it(`${name}: ${raw}`, () => expectLine(SFT, withRaw(sftRecord(), runId, raw), vouched));

  it("long strings with escapes far apart, and strings longer than the scratch buffer", async () => {
    const long = `${"x".repeat(3000)}\\n${"y".repeat(5000)}\\"${"é".repeat(2000)}`;
    await expectLine(SFT_KEEP, withRaw(sftRecord(), ["coaching", "guidance"], `"${long}"`), true);
    await expectLine(SFT_KEEP, withRaw(sftRecord(), ["run_id"], `"${long}"`), true);
  });

  it("enums and literals match after decoding escapes", async () => {
    await expectLine(SFT, withRaw(sftRecord(), ["reconstruction"], '"per_seat\\u005ftrace"'), true);
    await expectLine(SFT, withRaw(sftRecord(), ["format_version"], '"1\\u002e1"'), true);
    await expectLine(SFT, withRaw(sftRecord(), ["reconstruction"], '"per_seat"'), false);
  });
});

describe("keys", () => {
  it("a duplicate declared key", () => expectLine(SFT, sftLine.replace('"run_id":', '"run_id":"other","run_id":'), false));
  it("a duplicate unknown key is harmless: stripped either way", () => expectLine(SFT, sftLine.replace("{", '{"x_a":1,"x_a":[2],'), true));
  it("a declared key spelled with an escape", () => expectLine(SFT, sftLine.replace('"run_id"', '"run\\u005fid"'), false));
  it("keys in any order", () => expectLine(SFT, JSON.stringify(Object.fromEntries(Object.entries(sftRecord()).reverse())), true));
  it("unknown keys with nested values, anywhere", () =>
    expectLine(SFT, withRaw(sftRecord(), ["seat"], '{"x":{"y":[1,{"z":null}],"":"\\u00e9"},"seat_index":1,"role":"r","agent_key_id":null,"w":[]}'), true));

  describe("map keys whose order or presence JSON.parse and zod would change", () => {
    const traits = (raw: string) => withRaw(sftRecord(), ["scores", "per_trait"], raw);
    const trait = '{"mean":1,"variance":0,"evidence":[]}';
    it("an array index", () => expectLine(SFT, traits(`{"b":${trait},"12":${trait}}`), false));
    it("__proto__", () => expectLine(SFT, traits(`{"__proto__":${trait}}`), false));
    it("a duplicate", () => expectLine(SFT, traits(`{"a":${trait},"a":${trait}}`), false));
    it("an empty key and non-index digits are fine", () => expectLine(SFT, traits(`{"":${trait},"1a":${trait},"é":${trait}}`), true));
    it("an empty map", () => expectLine(SFT, traits("{}"), true));
  });

  describe("inside JSON-typed values", () => {
    it("__proto__ (zod's record skips it)", () => expectLine(SFT, withRaw(sftRecord(), ["trace_steps"], '[{"__proto__":1}]'), false));
    it("an escaped __proto__", () => expectLine(SFT, withRaw(sftRecord(), ["trace_steps"], '[{"\\u005f_proto__":1}]'), false));
    it("array-index keys and escaped keys are fine: the raw text parses to the same value", () =>
      expectLine(SFT_KEEP, withRaw(sftRecord(), ["transcript"], '{"b":1,"12":2,"\\u00e9":3,"a":{"1":[]}}'), true));
  });

  describe("top-level keys that validate() reads before the schema", () => {
    it("a stream-error line", () => expectLine(SFT, '{"error":"partial_stream","run_index":3}', false));
    it("an error key on a record", () => expectLine(SFT, sftLine.replace("{", '{"error":"x",'), false));
    it("another format's version field", () => expectLine(RL, JSON.stringify({ format_version: "1.1", ...rlRecord() }), false));
    it("a version other than exactly the format's", async () => {
      await expectLine(SFT, withRaw(sftRecord(), ["format_version"], '"1.2"'), false);
      await expectLine(SFT, withRaw(sftRecord(), ["format_version"], "1.1"), false);
      await expectLine(SFT, JSON.stringify(sftRecord({ format_version: undefined })), false);
    });
  });
});

describe("structure and types", () => {
  const cases: [string, string, boolean][] = [
    ["whitespace between every token", JSON.stringify(sftRecord(), null, "\t").replace(/\n/g, "\r\n "), true],
    ["leading and trailing whitespace", ` \t${sftLine}\r `, true],
    ["a BOM (the line sources strip it; JSON.parse refuses it)", `\ufeff${sftLine}`, false],
    ["an array", "[]", false],
    ["null", "null", false],
    ["an empty object", "{}", false],
    ["an empty line", "", false],
    ["a truncated line", sftLine.slice(0, -1), false],
    ["trailing garbage", `${sftLine} x`, false],
    ["two records on a line", `${sftLine}${sftLine}`, false],
    ["a trailing comma", `${sftLine.slice(0, -1)},}`, false],
    ["a boolean as a string", withRaw(sftRecord(), ["scored"], '"true"'), false],
    ["a non-nullable struct null", withRaw(sftRecord(), ["seat"], "null"), false],
    ["a nullable struct null", withRaw(sftRecord(), ["scores"], "null"), true],
    ["a required nullable field absent", JSON.stringify(sftRecord({ coaching: undefined })), false],
    ["an optional field absent", JSON.stringify(sftRecord({ manifest: undefined, transcript: undefined })), true],
    ["an optional non-nullable field null", withRaw(sftRecord(), ["manifest"], "null"), false],
    ["an optional JSON value null (z.json() accepts null)", withRaw(sftRecord(), ["transcript"], "null"), true],
    ["an empty list", withRaw(sftRecord(), ["trace_steps"], "[]"), true],
    ["a list null", withRaw(sftRecord(), ["trace_steps"], "null"), false],
    ["null items of a JSON list", withRaw(sftRecord(), ["trace_steps"], "[null,{},[],\"\",0,false]"), true],
    ["JSON nested 100 deep", withRaw(sftRecord(), ["trace_steps"], `${"[".repeat(100)}${"]".repeat(100)}`), true],
    ["JSON nested 600 deep (declined: deeper than the walker goes)", withRaw(sftRecord(), ["trace_steps"], `${"[{\"a\":".repeat(300)}1${"}]".repeat(300)}`), false],
    ["unbalanced JSON", withRaw(sftRecord(), ["trace_steps"], "[[1]"), false],
  ];
  for (const [name, line, vouched] of cases) it(name, () => expectLine(SFT, line, vouched));
});

describe("semantic faults are check's business: the walker writes the row and the skeleton shows the fault", () => {
  it("RL: an index gap and an early terminal reward", async () => {
    const gap = rlRecord({ tuples: [rlTuple(0), rlTuple(2)] });
    await expectLine(RL, JSON.stringify(gap), true);
    const early = rlRecord({ tuples: [rlTuple(0, { reward: { ...rlTuple(0).reward, terminal_reward: 1 } }), rlTuple(1)] });
    await expectLine(RL, JSON.stringify(early), true);
  });
  it("DPO: a run paired with itself", () => expectLine(DPO, JSON.stringify(dpoRecord({ run_rejected: dpoRecord().run_chosen })), true));
});

describe("the caller's buffer", () => {
  it("reads only [start, end), from a Buffer or a plain Uint8Array at any offset", () => {
    const bytes = Buffer.from(sftLine);
    for (const lead of [0, 1, 2, 3, 7]) {
      const plain = new Uint8Array(lead + bytes.length + 4);
      plain.set(bytes, lead);
      plain.set(Buffer.from("}]\\u"), lead + bytes.length);
      expect(SFT.parser.parse(plain, lead, lead + bytes.length, recorders(SFT.parser.plan.leaves.length))).not.toBeNull();
      // One byte short is a truncated line, whatever follows in the buffer.
      expect(SFT.parser.parse(plain, lead, lead + bytes.length - 1, recorders(SFT.parser.plan.leaves.length))).toBeNull();
    }
  });
});
