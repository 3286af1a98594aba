import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LITERAL, mayMatterUtf8, scanJsonString } from "../../../../src/engines/parallel/run/may-matter-utf8.js";
import { BUILT_IN_CONTROL_TOKENS, BUILT_IN_NUMBERED_TOKENS } from "../../../../src/views/control-tokens.js";
import { sanitizeText } from "../../../../src/views/sanitize-text.js";
import { scanInjection } from "../../../../src/views/scan-injection.js";
import { asciiJson } from "../../../helpers/ascii-json.js";
import { trickyText } from "../../../helpers/tricky-texts.js";

// The workers' byte pass before the text scan must never clear a text the scan would count as changed or
// injected: as UTF-8 text (a string column) and as the inside of a JSON string literal (a JSON column).
describe("the byte pass before a worker's text scan", () => {
  it("flags a text holding any built-in control token, numbered ones too, raw or JSON-escaped", () => {
    const tokens = [...BUILT_IN_CONTROL_TOKENS, ...BUILT_IN_NUMBERED_TOKENS.map((t) => t.replace("{N}", "7"))];
    for (const token of tokens) {
      const text = `plain words ${token} more words`;
      expect(sanitizeText(text).changed).toBe(true);
      const raw = Buffer.from(text, "utf8");
      expect(mayMatterUtf8(raw, 0, raw.length, false)).toBe(true);
      const literal = Buffer.from(JSON.stringify(text), "utf8");
      expect(mayMatterUtf8(literal, 1, literal.length - 1, true)).toBe(true);
    }
  });

  it("flags every text sanitizing changes or an injection pattern matches, raw or JSON-escaped", () => {
    const texts = fc.oneof(trickyText, fc.string({ unit: "grapheme", maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 }));
    fc.assert(
      fc.property(texts, (t) => {
        const matters = sanitizeText(t).changed || scanInjection(t).length > 0;
        if (!matters) return;
        const raw = Buffer.from(t, "utf8");
        // A lone surrogate has no UTF-8: the column holds U+FFFD for it, which the scan then reads.
        if (raw.toString("utf8") === t) expect(mayMatterUtf8(raw, 0, raw.length, false)).toBe(true);
        const literal = Buffer.from(JSON.stringify(t), "utf8");
        expect(mayMatterUtf8(literal, 1, literal.length - 1, true)).toBe(true);
        // The one-pass scan of a literal inside a JSON value finds its end and flags it alike.
        const value = Buffer.from(`{"k":${JSON.stringify(t)},"n":1}`, "utf8");
        expect(scanJsonString(value, 5, value.length)).toBe(4 + literal.length);
        expect(LITERAL.mayMatter).toBe(true);
        // An export that escapes every character above ASCII as `\uXXXX`.
        const ascii = Buffer.from(asciiJson(t), "latin1");
        expect(mayMatterUtf8(ascii, 1, ascii.length - 1, true)).toBe(true);
        const asciiValue = Buffer.from(`["x",${asciiJson(t)}]`, "latin1");
        expect(scanJsonString(asciiValue, 5, asciiValue.length)).toBe(4 + ascii.length);
        expect(LITERAL.mayMatter).toBe(true);
      }),
      { numRuns: 30_000, seed: 9 },
    );
  });
});
