import { ConfigError } from "../core/errors.js";
import { controlTokenSet } from "./control-token-set.js";
import type { ControlTokenSet } from "./control-token-set.js";
import { mayMatter } from "./text-prefilter.js";

/** A text after the `sanitize` policy, and whether the policy changed it. */
export interface Sanitized {
  readonly text: string;
  readonly changed: boolean;
}

/** The `sanitize` policy for one set of control tokens. */
export type Sanitizer = (text: string) => Sanitized;

/** A text a view writes, sanitized, and whether an injection pattern could match it (else none does). */
export interface Checked extends Sanitized {
  readonly inject: boolean;
}

/** The `sanitize` policy and the injection prefilter in one pass over most texts (`mayMatter`). */
export type TextCheck = (text: string) => Checked;

/** The `sanitize` policy for one set of control tokens, alone and with the injection prefilter. */
export interface SanitizePolicy {
  readonly sanitize: Sanitizer;
  readonly check: TextCheck;
  /** `sanitize` without the prefilter: its definition, which the prefilter is held to (test/views/text-prefilter.test.ts). */
  readonly remove: Sanitizer;
}

/**
 * Characters that are never text a model should learn from: C0 and C1 controls but tab and newline (DEL
 * too), the bidi embeddings, overrides and isolates (the "Trojan Source" set; the weak marks LRM, RLM and
 * ALM stay), zero-width characters (ZWSP, ZWNJ, word joiner, invisible operators, BOM, Mongolian vowel
 * separator) and the Unicode tag block (invisible "ASCII smuggling", astral, so matched as its surrogates).
 */
const CHARS = "[\\x00-\\x08\\x0B-\\x1F\\x7F-\\x9F\\u180E\\u200B\\u200C\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF]|\\uDB40[\\uDC00-\\uDC7F]";
/**
 * A zero-width joiner goes too, except inside an emoji ZWJ sequence (👨‍👩‍👧, 🏳️‍🌈): there it sits between a
 * pictograph (astral, a BMP symbol, or one ended by VS16) and another. An approximation of UTS #51 that keeps
 * every RGI sequence and costs one lookaround.
 */
const ZWJ = "(?<!(?:[\\uD83C-\\uD83E][\\uDC00-\\uDFFF]|[\\uFE0F\\u2600-\\u27BF]))\\u200D|\\u200D(?![\\uD83C-\\uD83E\\u2600-\\u27BF])";

/**
 * The `sanitize` policy with the built-in control tokens and `extraTokens` (a tokenizer's own). It removes
 * those tokens and the characters above and keeps everything else. Removing can join a new token
 * (`<|im_<|im_end|>start|>`, `<|im_\u200bstart|>`); the result never holds one: when a pass leaves a token,
 * a stack scan removes them to a fixed point in one more linear pass.
 */
export function sanitizer(extraTokens: readonly string[] = []): Sanitizer {
  return sanitizePolicy(extraTokens).sanitize;
}

/** {@link sanitizer}, with the check a view runs on each text it writes. */
export function sanitizePolicy(extraTokens: readonly string[] = []): SanitizePolicy {
  for (const token of extraTokens) {
    if (token.length === 0) throw new ConfigError("A control token cannot be empty");
    // Such characters go before tokens are matched, so a token holding one would never match.
    if (new RegExp(`${CHARS}|\\u200D`).test(token)) {
      throw new ConfigError(`Control token ${JSON.stringify(token)} holds a control, bidi or zero-width character, which sanitizing removes anyway`);
    }
  }
  const set = controlTokenSet(extraTokens);
  const tokenSource = set.source;
  // The quick test: anything at all to remove? Any ZWJ counts here; most texts have none of these.
  const suspect = new RegExp(`${tokenSource}|${CHARS}|\\u200D`);
  const chars = new RegExp(`${CHARS}|${ZWJ}`, "g");
  const tokenGlobal = new RegExp(tokenSource, "g");
  const tokenTest = new RegExp(tokenSource);
  // Before any regex: most texts hold no token's first code unit and none of the characters. The prefilter
  // knows the built-in tokens (each begins with a character it flags); a tokenizer's own add their first units.
  const extra = extraTokens.length === 0 ? null : new RegExp(`[${[...new Set(extraTokens.map((t) => t.charCodeAt(0)))].map((c) => `\\u${c.toString(16).padStart(4, "0")}`).join("")}]`);
  const flagged = extra === null ? mayMatter : (text: string): boolean => extra.test(text) || mayMatter(text);
  const removeAll = (text: string): Sanitized => {
    if (!suspect.test(text)) return { text, changed: false };
    let out = text.replace(chars, "").replace(tokenGlobal, "");
    if (tokenTest.test(out)) out = removeTokens(out, set);
    return { text: out, changed: out !== text };
  };
  return {
    sanitize: (text) => (flagged(text) ? removeAll(text) : { text, changed: false }),
    check: (text) => {
      if (!flagged(text)) return { text, changed: false, inject: false };
      const { text: out, changed } = removeAll(text);
      // Unchanged and flagged by the prefilter itself (not for a tokenizer's token): a pattern may match.
      return { text: out, changed, inject: changed || extra !== null ? mayMatter(out) : true };
    },
    remove: removeAll,
  };
}

/** The `sanitize` policy with the built-in control tokens only. */
export const sanitizeText: Sanitizer = sanitizer();

/**
 * `text` without any of the tokens, to a fixed point: each code unit is pushed onto an output stack, and
 * when the stack ends with a token the token is popped. The stack never holds a token (it held none before
 * the push, and a pop leaves a prefix of a token-free text), so one pass suffices.
 */
function removeTokens(text: string, set: ControlTokenSet): string {
  const out = new Uint16Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    out[n++] = text.charCodeAt(i);
    n -= set.endsWithToken(out, n);
  }
  let result = "";
  for (let at = 0; at < n; at += 8192) result += String.fromCharCode(...out.subarray(at, Math.min(n, at + 8192)));
  return result;
}
