import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileLineParser } from "../../../../src/engines/parallel/fast/compile-line-parser.js";
import { FORMATS } from "../../../../src/formats/index.js";
import { FORMAT_NAMES } from "../../../../src/formats/format.js";
import type { Format } from "../../../../src/formats/format.js";
import { columnPlan } from "../../../../src/parquet/column-plan.js";
import { columnsOf } from "../../../../src/schema/columns-of.js";
import { outputColumns, resolveUntrustedPolicy } from "../../../../src/stages/untrusted-policy.js";
import { allUntrusted, differential, subject } from "./helpers/differential.js";
import { EXOTIC_POLICIES } from "./helpers/policies.js";

describe("compileLineParser", () => {
  for (const name of FORMAT_NAMES) {
    it(`${name}: compiles under every policy, with the plan of the dataset's columns`, () => {
      const format = FORMATS[name];
      for (const overrides of [{}, allUntrusted(format, "keep"), allUntrusted(format, "redact"), ...EXOTIC_POLICIES[name]]) {
        const policy = resolveUntrustedPolicy(format, overrides);
        expect(compileLineParser(format, policy).plan).toEqual(columnPlan(outputColumns(format, policy)));
      }
    });
  }

  describe("refuses, at compile time, any zod construct it cannot mirror exactly", () => {
    /** An SFT-like format whose record adds `field`. */
    const withField = (field: z.ZodType): Format => {
      const schema = z.object({ format_version: z.literal("1.1"), field });
      const facts = () => ({ key: "k", scorecardVersion: null, flagged: false, scored: null, reconstruction: null, runIds: [], usablePairs: null, seat: null, campaignId: "" });
      return { ...FORMATS.sft, untrustedPaths: [], schema, anyVersionSchema: schema, columns: columnsOf(schema), facts, check: () => null } as Format;
    };
    const cases: [string, () => z.ZodType][] = [
      ["a union", () => z.union([z.string(), z.number()])],
      ["a string check", () => z.string().min(1)],
      ["a string format", () => z.email()],
      ["multipleOf", () => z.number().multipleOf(2)],
      ["an int32 format", () => z.int32()],
      ["a transform", () => z.string().transform((s) => s.length)],
      ["a default", () => z.string().default("x")],
      ["a strict object", () => z.object({ a: z.string() }).strict()],
      ["a passthrough object", () => z.object({ a: z.string() }).passthrough()],
      ["a refined object", () => z.object({ a: z.string() }).refine(() => true)],
      ["an enum-keyed record", () => z.record(z.enum(["a", "b"]), z.string())],
      ["an array length check", () => z.array(z.string()).min(1)],
      ["a lazy schema that is not z.json()", () => z.lazy(() => z.string())],
      ["a number literal", () => z.literal(1)],
      ["a tuple", () => z.tuple([z.string()])],
      ["a date", () => z.date()],
    ];
    for (const [name, make] of cases) {
      it(name, () => {
        const format = withField(make());
        expect(() => compileLineParser(format, resolveUntrustedPolicy(format))).toThrow(/fast line parser cannot compile/);
      });
    }

    it("a version field that is not the format's literal", () => {
      const schema = z.object({ format_version: z.string(), a: z.string() });
      const format = { ...FORMATS.sft, untrustedPaths: [], schema, anyVersionSchema: schema, columns: columnsOf(schema) } as Format;
      expect(() => compileLineParser(format, resolveUntrustedPolicy(format))).toThrow(/literal "1.1"/);
    });

    it("accepts what it mirrors: nullable, optional, enums, records, z.json(), JSON-marked values of any shape, empty objects, z.int()", async () => {
      const format = withField(
        z.object({
          a: z.string().nullable().optional(),
          b: z.enum(["x", "y"]),
          c: z.record(z.string(), z.array(z.number().int().min(0).max(9))),
          d: z.json(),
          e: z.object({ f: z.boolean() }).meta({ "x-evalshard-type": "json" }),
          g: z.object({}),
          h: z.int(),
        }),
      );
      const s = subject(format, {}, "made-up", true);
      const field = { a: null, b: "y", c: { k: [0, 9] }, d: { x: [1, null] }, e: { f: true }, g: { extra: 1 }, h: -3 };
      expect(await differential(s, JSON.stringify({ format_version: "1.1", field }))).toBe(true);
      expect(await differential(s, JSON.stringify({ format_version: "1.1", field: { ...field, e: { f: 1 } } }))).toBe(false);
      expect(await differential(s, JSON.stringify({ format_version: "1.1", field: { ...field, c: { k: [10] } } }))).toBe(false);
      expect(await differential(s, JSON.stringify({ format_version: "1.1", field: { ...field, h: 0.5 } }))).toBe(false);
    });
  });
});
