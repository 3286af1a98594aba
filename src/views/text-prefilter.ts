/**
 * One linear pass over a text's code units, through a lookup table, that tells whether the `sanitize` policy
 * or an injection pattern could apply to it at all; the regexes then run only on the texts it flags. It
 * answers a superset of what the regexes match (never misses, may flag a text they then clear), so counts
 * and rows are those of the regexes alone. A regex test per text cost more than the rest of the scan: a
 * call per text (most are short, observations' values a few bytes) and, for the injection prefilter, an
 * alternation of case-folded stems tried at every position (benchmarks: docs/benchmarks.md).
 */

/** The code unit may begin a control token, or is a character `sanitize` removes. */
const MAY_SANITIZE = 1;

/** Code units that alone make a text suspect for the injection patterns: `<`, `[`, `{` (role tags), `#` (role headers). */
const TAG = 4;
/** `:` ends a role header or a `SYSTEM:` line when a role word comes before it. */
const COLON = 8;
/** The `g` of ignore, disregard and forget: the rarest letter all three stems hold. */
const STEM_G = 16;

/** The code units `sanitize` removes (or, 0xDB40, the high surrogate of those it removes), as ranges. */
const REMOVED_RANGES = [[0x00, 0x08], [0x0b, 0x1f], [0x7f, 0x9f], [0x180e, 0x180e], [0x200b, 0x200d], [0x202a, 0x202e], [0x2060, 0x2064], [0x2066, 0x2069], [0xfeff, 0xfeff], [0xdb40, 0xdb40]] as const;

/**
 * The table for a set of control tokens, given by the code units they begin with (`ControlTokenSet.firstUnits`),
 * and the characters `sanitize` removes (C0 and C1 controls but tab and newline, DEL, bidi embeddings,
 * overrides and isolates, zero-width characters, the high surrogate of the tag block), each with the injection
 * triggers.
 */
export function prefilterTable(firstUnits: readonly number[]): Uint8Array {
  const table = new Uint8Array(0x10000);
  const mark = (from: number, to: number, bit: number): void => {
    for (let c = from; c <= to; c++) table[c] = (table[c] as number) | bit;
  };
  for (const unit of firstUnits) mark(unit, unit, MAY_SANITIZE);
  for (const [from, to] of REMOVED_RANGES) mark(from, to, MAY_SANITIZE);
  for (const c of "<[{#") mark(c.charCodeAt(0), c.charCodeAt(0), TAG);
  mark(0x3a, 0x3a, COLON);
  for (const c of "gG") mark(c.charCodeAt(0), c.charCodeAt(0), STEM_G);
  return table;
}

/** Whether `sanitize`, with the tokens of `table`, could change `text`. */
export function maySanitize(text: string, table: Uint8Array): boolean {
  for (let i = 0; i < text.length; i++) if (((table[text.charCodeAt(i)] as number) & MAY_SANITIZE) !== 0) return true;
  return false;
}

/** {@link textFlags}: `sanitize` could change the text (its injection triggers are then unknown: scan the result). */
export const FLAG_SANITIZE = 1;
/** {@link textFlags}: an injection pattern could match the text, as {@link mayInject} answers. */
export const FLAG_INJECT = 2;

/**
 * {@link maySanitize} and {@link mayInject} in one pass, for a text a view writes: 0 for most texts, which
 * neither the sanitizer nor the patterns then look at again. It stops at the first unit `sanitize` may
 * remove: the sanitized text, not this one, is what the patterns are run on.
 */
export function textFlags(text: string, table: Uint8Array): number {
  let flags = 0;
  for (let i = 0; i < text.length; i++) {
    const bits = table[text.charCodeAt(i)] as number;
    if (bits === 0) continue;
    if ((bits & MAY_SANITIZE) !== 0) return FLAG_SANITIZE;
    if (flags === 0 && ((bits & TAG) !== 0 || (bits === COLON ? roleBefore(text, i) : stemAfter(text, i + 1)))) flags = FLAG_INJECT;
  }
  return flags;
}

/**
 * {@link textFlags} for a set of control tokens (the code units they begin with), behind one regex test that
 * clears most texts first: a character class of every code unit the table marks but `g`, and `g` before a
 * stem's rest, case-blind (a superset of what the table pass flags, so the answer is the pass's). Native code
 * runs the class over a text in about two thirds of the JS pass's time (docs/benchmarks.md, issue 18).
 */
export function textFlagsFor(firstUnits: readonly number[]): (text: string) => number {
  const table = prefilterTable(firstUnits);
  const unit = (c: number): string => `\\u${c.toString(16).padStart(4, "0")}`;
  const firsts = firstUnits.map(unit).join("");
  const ranges = REMOVED_RANGES.map(([from, to]) => (from === to ? unit(from) : `${unit(from)}-${unit(to)}`)).join("");
  const quick = new RegExp(`[${firsts}${ranges}<\\[{#:]|g(?:nor|ard|et)`, "i");
  return (text) => (quick.test(text) ? textFlags(text, table) : 0);
}

/** The built-in tokens' table: the injection triggers are the same in every table. */
let injectionTable: Uint8Array | null = null;

/** Whether an injection pattern could match `text`. */
export function mayInject(text: string): boolean {
  const table = (injectionTable ??= prefilterTable([]));
  for (let i = 0; i < text.length; i++) {
    const bits = (table[text.charCodeAt(i)] as number) & ~MAY_SANITIZE;
    if (bits < TAG) continue;
    if ((bits & TAG) !== 0) return true;
    if (bits === COLON ? roleBefore(text, i) : stemAfter(text, i + 1)) return true;
  }
  return false;
}

/** Words a `:` follows in a role header or a `SYSTEM:` line (spaces and tabs between). */
export const ROLE_WORDS: readonly string[] = ["system", "override", "prompt", "message", "note", "human", "assistant", "user", "ai"];

function roleBefore(text: string, colon: number): boolean {
  let end = colon;
  while (end > 0 && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  return ROLE_WORDS.some((w) => endsWithFolded(text, end, w));
}

/** After a `g`: `nor` (ignore), `ard` (disregard), `et` (forget). */
function stemAfter(text: string, at: number): boolean {
  return endsWithFolded(text, at + 3, "nor") || endsWithFolded(text, at + 3, "ard") || endsWithFolded(text, at + 2, "et");
}

/** `text` before `end` ends with the lower-case ASCII `word`, ASCII letters compared case-blind (as the patterns' `i` flag, which folds no other letter onto ASCII). */
function endsWithFolded(text: string, end: number, word: string): boolean {
  const start = end - word.length;
  if (start < 0 || end > text.length) return false;
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(start + k);
    const lower = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
    if (lower !== word.charCodeAt(k)) return false;
  }
  return true;
}
