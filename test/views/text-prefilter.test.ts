import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUILT_IN_CONTROL_TOKENS } from "../../src/views/control-tokens.js";
import { sanitizer } from "../../src/views/sanitize-text.js";
import { INJECTION_PATTERNS, scanInjection } from "../../src/views/scan-injection.js";
import type { InjectionPattern } from "../../src/views/scan-injection.js";
import { trickyText as text } from "../helpers/tricky-texts.js";

// The prefilter before the regexes must never clear a text a regex would match: scans with it equal scans
// without it, on texts made of the pieces the patterns and the sanitizer look for, in any case.
const NAMES = Object.keys(INJECTION_PATTERNS) as InjectionPattern[];

describe("the prefilter before the text regexes", () => {
  it("never clears a text an injection pattern matches", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(scanInjection(t)).toEqual(NAMES.filter((n) => INJECTION_PATTERNS[n].test(t)));
      }),
      { numRuns: 20_000, seed: 3 },
    );
  });

  it("never clears a text sanitizing changes, built-in tokens or a tokenizer's own", () => {
    const extra = ["<my_tok>", "§END§", "@@user@@"];
    const sanitize = sanitizer(extra);
    // The sanitizer's own rule, without the prefilter: anything to remove, removed.
    const all = [...BUILT_IN_CONTROL_TOKENS, ...extra];
    fc.assert(
      fc.property(fc.array(fc.oneof(text, fc.constantFrom(...extra)), { maxLength: 3 }).map((ts) => ts.join("")), (t) => {
        const { text: out, changed } = sanitize(t);
        expect(changed).toBe(out !== t);
        // (A zero-width joiner may stay, inside an emoji sequence.)
        const removable = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u180E\u200B\u200C\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/;
        if (all.some((tok) => t.includes(tok)) || removable.test(t)) expect(changed).toBe(true);
        expect(all.some((tok) => out.includes(tok)) || removable.test(out)).toBe(false);
      }),
      { numRuns: 20_000, seed: 5 },
    );
  });
});
