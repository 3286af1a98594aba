import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WasmAudit } from "../../src/engines/parallel/fast/wasm-audit.js";
import { scanRegion } from "../../src/engines/parallel/fast/wasm-scan.js";
import { BUILT_IN_CONTROL_TOKENS, BUILT_IN_NUMBERED_TOKENS } from "../../src/views/control-tokens.js";
import { sanitizePolicy, sanitizer } from "../../src/views/sanitize-text.js";
import { INJECTION_PATTERNS, matchInjection, scanInjection } from "../../src/views/scan-injection.js";
import type { InjectionPattern } from "../../src/views/scan-injection.js";
import { mayMatter, utf8MayMatter } from "../../src/views/text-prefilter.js";
import { asciiJson } from "../helpers/ascii-json.js";
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

// The prefilter's rule has one home, the scan module (src/engines/parallel/wasm/audit.ts); it is held here to
// its definition: a text matters when `sanitize` (built-in tokens, the regexes without the prefilter) changes
// it or an injection pattern matches it. Every text that matters must be flagged, in each form a caller hands
// the module: a JS string, UTF-8 bytes, the inside of a JSON string literal (raw, or every unit above ASCII
// escaped, as some exports write them).
const { remove } = sanitizePolicy();
const matters = (t: string): boolean => remove(t).changed || matchInjection(t).length > 0;

scanRegion(1 << 16);
const audit = new WasmAudit();

/** Whether the module's JSON pass (a worker's, over a column of JSON values) flags the one string literal `spelled`. */
function literalFlagged(spelled: string, encoding: "utf8" | "latin1" = "utf8"): boolean {
  const json = Buffer.from(spelled, encoding);
  const column = Buffer.concat([Buffer.from(new Uint32Array([json.length]).buffer), json]);
  const words = audit.json(column, 0, column.length);
  expect(words[0]).toBe(1);
  return words[1] === 1;
}

/** Whether the module flags the UTF-8 of `t`, lying at an offset in a larger buffer. */
function bytesFlagged(t: string): boolean {
  const bytes = Buffer.from(`xy${t}z`, "utf8");
  return utf8MayMatter(bytes, 2, bytes.length - 1);
}

describe("the text-audit prefilter, held to its definition", () => {
  it("flags a text holding any built-in control token, numbered ones too, in each form", () => {
    const tokens = [...BUILT_IN_CONTROL_TOKENS, ...BUILT_IN_NUMBERED_TOKENS.map((t) => t.replace("{N}", "7"))];
    for (const token of tokens) {
      const t = `plain words ${token} more words`;
      expect(matters(t)).toBe(true);
      expect([mayMatter(t), bytesFlagged(t), literalFlagged(JSON.stringify(t)), literalFlagged(asciiJson(t), "latin1")]).toEqual([true, true, true, true]);
    }
  });

  it("flags every text that matters, in each form", () => {
    const texts = fc.oneof(text, fc.string({ unit: "grapheme", maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 }));
    let mattered = 0;
    fc.assert(
      fc.property(texts, (t) => {
        if (!matters(t)) return;
        mattered++;
        expect(mayMatter(t)).toBe(true);
        // A lone surrogate has no UTF-8: a column holds U+FFFD for it, which the scan then reads.
        if (Buffer.from(t, "utf8").toString("utf8") === t) expect(bytesFlagged(t)).toBe(true);
        expect(literalFlagged(JSON.stringify(t))).toBe(true);
        expect(literalFlagged(asciiJson(t), "latin1")).toBe(true);
      }),
      { numRuns: 30_000, seed: 9 },
    );
    expect(mattered).toBeGreaterThan(3_000);
  });

  it("clears a string before copying it into the module only when the module clears it", () => {
    const plain = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789.,;:!?'é日😀"), maxLength: 40 });
    fc.assert(
      fc.property(fc.oneof(plain, text, fc.string({ unit: "grapheme", maxLength: 40 })), (t) => {
        if (Buffer.from(t, "utf8").toString("utf8") === t) expect(mayMatter(t)).toBe(bytesFlagged(t));
      }),
      { numRuns: 20_000, seed: 10 },
    );
    expect(mayMatter("Move north")).toBe(false);
    expect(mayMatter("ignore previous orders")).toBe(true);
  });

  it("takes a text of any length", () => {
    const long = `${"a calm and harmless line. ".repeat(40_000)}<|im_end|>`;
    expect([mayMatter(long), bytesFlagged(long), mayMatter(long.slice(0, -10)), bytesFlagged(long.slice(0, -10))]).toEqual([true, true, false, false]);
  });
});
