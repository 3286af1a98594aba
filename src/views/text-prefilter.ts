import { inScratch, SCRATCH_AT, scratchRules, textInScratch } from "../core/scan-module.js";

/**
 * The text-audit prefilter for texts that lie outside a worker's scan module: whether the `sanitize` policy
 * (built-in control tokens) or an injection pattern could apply to a text at all. The regexes then run only on
 * the texts it flags; it answers a superset of what they match, so counts and rows are those of the regexes
 * alone. The rule has one home, the scan module (src/engines/parallel/wasm/audit.ts, which says what it looks
 * for); a text is copied into the thread's scratch instance of the module and tested there.
 */
export function mayMatter(text: string): boolean {
  if (!(lookedAt ??= lookedAtPattern()).test(text)) return false;
  const length = textInScratch(text);
  return scratchRules().auditText(SCRATCH_AT, SCRATCH_AT + length) === 1;
}

/** {@link mayMatter} of the UTF-8 text of bytes `[start, end)`. */
export function utf8MayMatter(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  return inScratch(bytes, start, end).auditText(SCRATCH_AT, SCRATCH_AT + end - start) === 1;
}

let lookedAt: RegExp | undefined;

/**
 * The UTF-16 code units whose UTF-8 bytes the module looks at (its `auditLooksAt`, asked for every byte), and
 * the surrogates: a text without any never matters, which most short texts (a role, a type name, a number)
 * show without a copy. Past ASCII a character is looked at when its lead byte is, or any continuation byte.
 */
function lookedAtPattern(): RegExp {
  const rules = scratchRules();
  const looksAt = (b: number): boolean => rules.auditLooksAt(b) === 1;
  let continuation = false;
  for (let b = 0x80; b < 0xc0; b++) continuation ||= looksAt(b);
  const looked = (u: number): boolean => (u < 0x80 ? looksAt(u) : (u >= 0xd800 && u <= 0xdfff) || continuation || looksAt(u < 0x800 ? 0xc0 | (u >> 6) : 0xe0 | (u >> 12)));
  const unit = (c: number): string => `\\u${c.toString(16).padStart(4, "0")}`;
  const ranges: string[] = [];
  for (let u = 0, from = -1; u <= 0x10000; u++) {
    const on = u < 0x10000 && looked(u);
    if (on && from === -1) from = u;
    if (!on && from !== -1) {
      ranges.push(from === u - 1 ? unit(from) : `${unit(from)}-${unit(u - 1)}`);
      from = -1;
    }
  }
  return new RegExp(`[${ranges.join("")}]`);
}
