import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileLineParser } from "../../../../src/engines/parallel/fast/compile-line-parser.js";
import { scanRegion } from "../../../../src/engines/parallel/fast/wasm-scan.js";
import { AuditedRows } from "../../../../src/engines/parallel/run/audited-rows.js";
import { sft } from "../../../../src/formats/sft.js";
import { resolveUntrustedPolicy } from "../../../../src/stages/untrusted-policy.js";
import { utf8MayMatter } from "../../../../src/views/text-prefilter.js";
import { asciiJson } from "../../../helpers/ascii-json.js";
import { expectAudited } from "../../../helpers/audit-reference.js";
import { sftRecord } from "../../../helpers/records.js";
import { trickyText } from "../../../helpers/tricky-texts.js";

// The wasm walk skips a JSON value the plain run's text audit reads (SFT's trace steps) with the audit's JSON
// pass folded in (src/engines/parallel/wasm/skip.ts's skipAudited). Its answers are held to a JSON.parse
// reference (test/helpers/audit-reference.ts): per value, the strings that are not keys, and the literals that
// may matter; a value whose keys repeat or hold an escape is left to the column's pass (the walk answers -1 for
// the row).

const region = scanRegion(1 << 20);
const parser = compileLineParser(sft, resolveUntrustedPolicy(sft, {}));
const steps = parser.plan.leaves.findIndex((l) => l.path[0] === "trace_steps");
const slots = parser.auditWhileWalking([steps]);
/** Where a worker's walk hands its answers: the row group the row goes to. */
const rows = new AuditedRows(parser.plan, slots.length);
// A second parser audits the evidence texts too (a text leaf: one value each, checked as the column's text pass checks it).
const both = compileLineParser(sft, resolveUntrustedPolicy(sft, {}));
const evidence = both.plan.leaves.findIndex((l) => l.path.includes("evidence"));
const bothSlots = both.auditWhileWalking([evidence, steps]);
const bothRows = new AuditedRows(both.plan, bothSlots.length);

/** The walk's answers for an SFT line whose trace steps are `values` (JSON texts). */
function walked(values: readonly string[]): { count: number; texts: string[] } | null {
  const record = JSON.stringify({ ...sftRecord(), trace_steps: [] }).replace('"trace_steps":[]', () => `"trace_steps":[${values.join(",")}]`);
  const bytes = Buffer.from(record);
  region.set(bytes);
  region[bytes.length] = 0x0a;
  rows.clear();
  rows.beginRow();
  const skeleton = parser.parse(region, 0, bytes.length, rows.leaves, rows);
  // A declined line's row is discarded (the slow path's, its values then read from the column).
  if (skeleton === null) return null;
  return { count: rows.counts[0] as number, texts: [...rows.texts] };
}

const filler = fc.nat(40).map((n) => "plain words, no tokens here. ".repeat(3).slice(0, n));
const text = fc.tuple(filler, fc.oneof(trickyText, fc.string({ unit: "grapheme", maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 })), filler).map(([a, t, b]) => a + t + b);
/** Either spelling an export may use: raw UTF-8, or every unit above ASCII as a `\u` escape. */
const literal = fc.tuple(text, fc.boolean()).map(([t, ascii]) => (ascii ? asciiJson(t) : JSON.stringify(t)));

describe("the wasm walk's audit of the JSON values it skips", () => {
  it("counts and flags a value's strings as the reference does", () => {
    expect(slots).toEqual([steps]);
    fc.assert(
      fc.property(literal, literal, literal, fc.nat(3), (a, b, c, shape) => {
        const values = [
          `{"a":${a}, "b" : [${b},{"c":${c},"n":1},${a}],"d":null}`,
          shape === 0 ? b : shape === 1 ? `[${c}, ${a} ,true]` : shape === 2 ? `{"x": {"y" :${b}}, "z": [[${c}]]}` : `{ "k" : ${c} , "l":-1.5e3}`,
        ];
        const answer = walked(values);
        expect(answer).not.toBeNull();
        if (answer !== null) expectAudited(values, answer);
      }),
      { numRuns: 10_000, seed: 16 },
    );
  });

  it("leaves a row to the column's pass when a value's key repeats or holds an escape, and counts one whose same key is in another object", () => {
    expect(walked(['{"a":"x","a":"y"}'])?.count).toBe(-1);
    expect(walked(['{"a\\u0062":"x"}'])?.count).toBe(-1);
    expect(walked(['{"a":"<|im_start|>"}', '{"b":{"b":1},"a":[{"a":2}]}'])).toEqual({ count: 1, texts: ["<|im_start|>"] });
    expect(walked(['{"a":"x"}', '{"a":"x","a":"y"}'])?.count).toBe(-1);
  });

  it("accepts and declines what the plain skip does", () => {
    for (const bad of ['{"__proto__":1}', '"\\x"', '"a\u0001"', "[1,]", '{"a" 1}', "1e999", "[".repeat(600) + "]".repeat(600)]) {
      expect(walked([bad])).toBeNull();
    }
    expect(walked(['"\\ud83d\\ude00 \\u00e9"', "[]", "{}", "null", "-0.5"])).toEqual({ count: 1, texts: ["😀 é"] });
  });

  it("counts a text leaf's values and flags those the column's text pass flags, escapes decoded", () => {
    expect(bothSlots).toEqual([evidence, steps]);
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.boolean()), { maxLength: 4 }), (texts) => {
        const record = sftRecord();
        const spelled = texts.map(([t, ascii]) => (ascii ? asciiJson(t) : JSON.stringify(t)));
        const line = JSON.stringify({ ...record, scores: { ...record.scores, per_trait: { empathy: { mean: 0.5, variance: 0.1, evidence: [] } } } }).replace('"evidence":[]', () => `"evidence":[${spelled.join(",")}]`);
        const bytes = Buffer.from(line);
        region.set(bytes);
        region[bytes.length] = 0x0a;
        bothRows.clear();
        bothRows.beginRow();
        expect(both.parse(region, 0, bytes.length, bothRows.leaves, bothRows)).not.toBeNull();
        // The column holds each text's UTF-8 (as JSON.parse decodes its literal); its pass reads those bytes.
        const decoded = spelled.map((s) => JSON.parse(s) as string);
        expect(bothRows.counts[0]).toBe(texts.length);
        expect(bothRows.texts).toEqual(decoded.filter((t) => utf8MayMatter(Buffer.from(t, "utf8"))));
        expect(bothRows.textSlots.every((s) => s === 0)).toBe(true);
      }),
      { numRuns: 5_000, seed: 17 },
    );
  });
});
