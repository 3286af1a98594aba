import { Buffer } from "node:buffer";
import { expect } from "vitest";
import { sanitizePolicy } from "../../src/views/sanitize-text.js";
import { matchInjection } from "../../src/views/scan-injection.js";
import { utf8MayMatter } from "../../src/views/text-prefilter.js";

// The text audit's answers for a JSON value, told without the scan module's JSON code: JSON.parse, then the
// value's strings that are not keys, in order. The module's JSON passes (skip.ts's audited skip in the walk,
// auditJson over a column) are held to this, not to each other. Which literals they flag is the audit's
// definition (test/views/text-prefilter.test.ts): every string whose text matters (`sanitize` changes it or
// an injection pattern matches it) flagged; a literal with no escape flagged exactly when its UTF-8 is (the
// prefilter's rule on plain bytes); one with an escape may be flagged while its text does not matter (an
// ASCII escape may spell a role word).

const { remove } = sanitizePolicy();
const matters = (t: string): boolean => remove(t).changed || matchInjection(t).length > 0;

/** A value's strings that are not keys, in document order (the values these tests build have no integer-like keys). */
export function valueStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(valueStrings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(valueStrings);
  return [];
}

/**
 * Holds a JSON pass's answer for the JSON texts `values` (their strings that are not keys, and the decoded texts
 * of the literals it flagged, in order) to the reference.
 */
export function expectAudited(values: readonly string[], answer: { count: number; texts: readonly string[] }): void {
  const strings = values.flatMap((v) => valueStrings(JSON.parse(v)));
  expect(answer.count).toBe(strings.length);
  // Each string that must be flagged is the next text flagged; one that may be is, or is not.
  const escaped = new Set(values.flatMap((v) => escapedLiterals(v)));
  let next = 0;
  for (const s of strings) {
    const must = matters(s) || (!escaped.has(s) && utf8MayMatter(Buffer.from(s, "utf8")));
    const may = must || escaped.has(s);
    if (must) expect(answer.texts[next]).toBe(s);
    if (may && answer.texts[next] === s) next++;
  }
  expect(answer.texts.slice(next)).toEqual([]);
}

/** The decoded texts of a JSON text's string literals that hold an escape (a plain tokenizer: quotes and backslashes). */
function escapedLiterals(json: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < json.length; i++) {
    if (json[i] !== '"') continue;
    let close = i + 1;
    while (json[close] !== '"') close += json[close] === "\\" ? 2 : 1;
    const literal = json.slice(i, close + 1);
    if (literal.includes("\\")) found.push(JSON.parse(literal) as string);
    i = close;
  }
  return found;
}
