import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FormatName } from "../../../../src/formats/format.js";
import { dpoArb, rlArb, sftArb } from "../../../helpers/arbitraries.js";
import { differential } from "./helpers/differential.js";
import type { Subject } from "./helpers/differential.js";
import { BENIGN, PLAIN, random, spell, unusual, WILD } from "./helpers/json-spelling.js";
import { damage, mutate, UNICODE } from "./helpers/mutate.js";
import { subjectsOf } from "./helpers/policies.js";

const ARBS: Readonly<Record<FormatName, fc.Arbitrary<object>>> = { sft: sftArb, rl: rlArb, dpo: dpoArb };
// FAST_RUNS=2000 for a longer hunt.
const RUNS = Number(process.env.FAST_RUNS ?? 150);
// Lone surrogates are quarantined by the slow path (the mutation tests cover them).
const UNICODE_VALID = UNICODE.filter((u) => !/[\ud800-\udfff]/.test(u.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")));

/** Replaces some string values by unicode text (raw or escaped once spelled): valid records still. */
function withUnicode(record: object, rnd: () => number): object {
  const visit = (v: unknown): unknown => {
    if (typeof v === "string" && rnd() < 0.3) {
      const u = UNICODE_VALID[Math.floor(rnd() * UNICODE_VALID.length)] as string;
      // Keep enum and version strings valid; free text takes anything.
      return ["per_seat_trace", "attribution_unavailable", "no_session", "action", "blocked_or_idle", "1.1", "1.0"].includes(v) ? v : `${v}${u}`;
    }
    if (Array.isArray(v)) return v.map(visit);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    return v;
  };
  return visit(record) as object;
}

for (const name of ["sft", "rl", "dpo"] as const) {
  const all = subjectsOf(name);
  describe(`${name}: differential against validate + strip + shredRecord`, () => {
    it("valid generated records are vouched for (unless unusual by design) and written as the slow path would", async () => {
      await fc.assert(
        fc.asyncProperty(ARBS[name], fc.integer(), async (record, seed) => {
          const rnd = random(seed);
          for (const s of all) {
            const vouched = await differential(s, spell(record, rnd, s === all[0] ? PLAIN : BENIGN));
            if (!unusual(record)) expect(vouched, s.label).toBe(true);
          }
        }),
        { numRuns: RUNS },
      );
    });

    it("unicode, escapes, whitespace and other number spellings stay on the fast path", async () => {
      let vouched = 0;
      await fc.assert(
        fc.asyncProperty(ARBS[name], fc.integer(), async (record, seed) => {
          const rnd = random(seed);
          const varied = withUnicode(record, rnd);
          const line = spell(varied, rnd, BENIGN);
          const ok = await differential(all[rnd() < 0.5 ? 0 : 1] as Subject, line);
          // Lone surrogates are quarantined by the slow path; the rest is unusual only by key.
          if (!unusual(varied)) expect(ok, line).toBe(true);
          if (ok) vouched++;
        }),
        { numRuns: RUNS },
      );
      expect(vouched).toBeGreaterThan(RUNS / 4);
    });

    it("mutated records (types, nulls, missing and unknown keys, edge numbers, duplicates, damage) never get a wrong answer", async () => {
      let vouched = 0;
      await fc.assert(
        fc.asyncProperty(ARBS[name], fc.integer(), fc.boolean(), async (record, seed, damaged) => {
          const rnd = random(seed);
          // Escaped keys make the fast path decline outright, so the wild spelling is kept to a few cases.
          const how = rnd() < 0.15 ? WILD : rnd() < 0.5 ? BENIGN : PLAIN;
          let line = spell(mutate(record, rnd), rnd, how);
          if (damaged && rnd() < 0.5) line = damage(line, rnd);
          for (const s of all) if (await differential(s, line)) vouched++;
        }),
        { numRuns: RUNS * 2 },
      );
      // Some mutations leave the record valid (an unknown key, a number spelled 1.0): those must still pass.
      // How many varies a lot with the random cases (119 to 400+ seen), so the bar is low.
      expect(vouched).toBeGreaterThan(RUNS / 4);
    });
  });
}
