import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileLineParser } from "../../../../src/engines/parallel/fast/compile-line-parser.js";
import { FORMATS } from "../../../../src/formats/index.js";
import { FORMAT_NAMES } from "../../../../src/formats/format.js";
import { resolveUntrustedPolicy } from "../../../../src/stages/untrusted-policy.js";
import { recorders } from "./helpers/recording-writer.js";

const firstLine = (name: string): string => (readFileSync(new URL(`../../../../fixtures/records/${name}-valid.ndjson`, import.meta.url), "utf8").split("\n")[0] as string);

/** Object keys at every depth, in order, as paths. */
function keyPaths(value: unknown, at = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${at}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => [`${at}.${k}`, ...keyPaths(v, `${at}.${k}`)]);
}

/** An optional top-level field of each format, with a valid value. */
const OPTIONAL: Record<(typeof FORMAT_NAMES)[number], (outcome: unknown) => Record<string, unknown>> = {
  sft: () => ({ transcript: [{ role: "dm", content: "hello" }] }),
  rl: (outcome) => ({ outcome }),
  dpo: (outcome) => ({ outcome }),
};

describe("primingLines", () => {
  for (const name of FORMAT_NAMES) {
    const format = FORMATS[name];
    const parser = compileLineParser(format, resolveUntrustedPolicy(format));
    const line = firstLine(name);
    const original: unknown = JSON.parse(line);

    it(`${name}: the record with every object's keys reversed, which the parser vouches for`, () => {
      const [reversed] = parser.primingLines(line);
      const value: unknown = JSON.parse(String(reversed));
      expect(value).toEqual(original);
      expect(Object.keys(value as object)).toEqual(Object.keys(original as object).reverse());
      const out = recorders(parser.plan.leaves.length);
      expect(parser.parse(reversed as Buffer, 0, (reversed as Buffer).length, out)).not.toBeNull();
    });

    it(`${name}: the record without its optional fields, which the parser vouches for`, () => {
      // Each fixture's first record, given one optional top-level field if it has none.
      const rlOutcome = (JSON.parse(firstLine("rl")) as { outcome: unknown }).outcome;
      const full = { ...(original as object), ...OPTIONAL[name](rlOutcome) };
      const without = parser.primingLines(JSON.stringify(full))[1] as Buffer;
      const value = JSON.parse(String(without)) as Record<string, unknown>;
      for (const key of Object.keys(OPTIONAL[name](rlOutcome))) expect(value).not.toHaveProperty(key);
      for (const p of keyPaths(value)) expect(keyPaths(full)).toContain(p);
      expect(keyPaths(value).length).toBeGreaterThan(0);
      expect(parser.parse(without, 0, without.length, recorders(parser.plan.leaves.length))).not.toBeNull();
    });
  }

  it("gives nothing for a line that is not JSON", () => {
    const format = FORMATS.sft;
    expect(compileLineParser(format, resolveUntrustedPolicy(format)).primingLines("{not json")).toEqual([]);
  });
});
