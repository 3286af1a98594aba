// AssemblyScript (see scan.ts), not TypeScript.
//
// The text-audit prefilter, the one home of its rule (issue 33): whether the `sanitize` policy with the
// built-in control tokens (src/views/sanitize-text.ts) or an injection pattern (src/views/scan-injection.ts)
// could apply to a UTF-8 text at all. It answers a superset of what they match (never misses, may flag a text
// they then clear), so counts and rows are those of the regexes alone, which then run only on the texts it
// flags. A text may matter when it holds a character `sanitize` removes (C0 and C1 controls but tab and
// newline, DEL, bidi embeddings, overrides and isolates, zero-width characters, the tag block), a tag
// character `<[{#` (every built-in token begins with `<` or `[`), a role word before a `:`, or a `g` that
// `nor`, `ard` or `et` follows (ignore, disregard, forget). Every caller runs it here: a worker over a
// column's values (unit-text-audit.ts; its JSON values through skip.ts's auditJson) or a walk's strings, where
// they lie in its module; a JS string or bytes elsewhere copied into the thread's scratch instance
// (src/views/text-prefilter.ts). It is held to the regexes by test/views/text-prefilter.test.ts.
//
// A column's values lie as the row group builder holds them: a u32 length, then that many bytes.

import { BACKSLASH, QUOTE, splat } from "./scan";

// What each byte may start: controls but tab and newline, DEL and the tag characters `<[{#` flag a text at once.
const FLAG: u8 = 1;
const COLON_KIND: u8 = 2;
const G: u8 = 3;
export const BACKSLASH_KIND: u8 = 4;
const LEAD: u8 = 5;
export const QUOTE_KIND: u8 = 6;
export const KINDS: usize = memory.data(256);
for (let b: usize = 0; b < 0x20; b++) if (b != 0x09 && b != 0x0a) store<u8>(KINDS + b, FLAG);
store<u8>(KINDS + 0x3c, FLAG); // <
store<u8>(KINDS + 0x5b, FLAG); // [
store<u8>(KINDS + 0x7b, FLAG); // {
store<u8>(KINDS + 0x23, FLAG); // #
store<u8>(KINDS + 0x7f, FLAG);
store<u8>(KINDS + 0x3a, COLON_KIND);
store<u8>(KINDS + 0x67, G);
store<u8>(KINDS + 0x47, G);
store<u8>(KINDS + 0x5c, BACKSLASH_KIND);
store<u8>(KINDS + 0x22, QUOTE_KIND);
store<u8>(KINDS + 0xc2, LEAD);
store<u8>(KINDS + 0xe1, LEAD);
store<u8>(KINDS + 0xe2, LEAD);
store<u8>(KINDS + 0xef, LEAD);
store<u8>(KINDS + 0xf3, LEAD);

/**
 * Words a `:` follows in a role header or a `SYSTEM:` line (spaces and tabs between), as the injection
 * patterns name them; in memory as a count, then each word's length and bytes.
 */
const ROLE_WORD_LIST = "system override prompt message note human assistant user ai";
const ROLE_WORDS: usize = memory.data(64);
writeRoleWords();

function writeRoleWords(): void {
  let count: u8 = 0;
  let at = ROLE_WORDS + 1;
  for (let i = 0; i <= ROLE_WORD_LIST.length; ) {
    let end = i;
    while (end < ROLE_WORD_LIST.length && ROLE_WORD_LIST.charCodeAt(end) != 0x20) end++;
    store<u8>(at++, <u8>(end - i));
    for (let k = i; k < end; k++) store<u8>(at++, <u8>ROLE_WORD_LIST.charCodeAt(k));
    count++;
    i = end + 1;
  }
  store<u8>(ROLE_WORDS, count);
}

// The keys of a JSON value's open objects, to tell a key twice (skip.ts's audited skip); past these, the caller parses the value.
const MAX_KEYS: u32 = 1024;
const KEY_START: usize = memory.data(MAX_KEYS * 4);
const KEY_END: usize = memory.data(MAX_KEYS * 4);

/** Where the last call of a column's pass stopped: past the last whole value it took. */
let stop: usize = 0;

export function auditStop(): usize {
  return stop;
}

/** Sets {@link auditStop}: skip.ts's auditJson, the column's JSON pass, stops there. */
export function setAuditStop(p: usize): void {
  stop = p;
}

/**
 * Text values: for each whole value in [p, end), whether its UTF-8 text may matter, one byte (1 or 0) each
 * from `out` on. Returns the number of values; {@link auditStop} says where they end.
 */
export function auditTexts(p: usize, end: usize, out: usize): u32 {
  let n: u32 = 0;
  while (p + 4 <= end) {
    const start = p + 4;
    const last = start + <usize>load<u32>(p);
    if (last > end) break;
    store<u8>(out + n, textMayMatter(start, last) ? 1 : 0);
    n++;
    p = last;
  }
  stop = p;
  return n;
}

/**
 * One text already in this memory (a walk's string, which a view takes as its bytes): whether its UTF-8 text
 * [start, end) may matter, 1 or 0. Reads up to 3 bytes past `end` without their deciding anything.
 */
export function auditText(start: usize, end: usize): u32 {
  return textMayMatter(start, end) ? 1 : 0;
}

/**
 * Whether the key quoted at [open, last] (`escaped`: it holds a backslash, which may spell another key) is
 * plainly new in its object, whose keys are [from, count) of the key table; it is then recorded at `count`.
 * skip.ts's audited skip asks it.
 */
export function newKey(open: usize, last: usize, escaped: bool, from: u32, count: u32): bool {
  if (escaped || count == MAX_KEYS) return false;
  const length = last - open;
  for (let k = from; k < count; k++) {
    const at = <usize>load<u32>(KEY_START + (<usize>k << 2));
    // A key's first four bytes (its quote and three more, or its closing quote and what follows) tell most keys apart.
    if (<usize>load<u32>(KEY_END + (<usize>k << 2)) - at == length && (length < 3 || load<u32>(at) == load<u32>(open)) && memory.compare(at, open, length) == 0) return false;
  }
  store<u32>(KEY_START + (<usize>count << 2), <u32>open);
  store<u32>(KEY_END + (<usize>count << 2), <u32>last);
  return true;
}

// The bytes the test looks at (controls, tab and newline too, which the scalar step skips; `"#:<[\{` and
// DEL; the lead bytes C2, E1, E2, EF, F3, and F2 with them), as a nibble table: a byte is one when the
// entries of its high and low nibble share a bit. Bits: 01 controls (high 0, 1); 02 `"#` and F2 F3; 04 `:<`;
// 10 `[\`; 20 `{` DEL; 40 C2; 80 E1 E2 EF. In memory, as every SIMD constant here (scan.ts's SPLATS says why).
export const LOW: usize = memory.data<u8>([0x01, 0x81, 0xc3, 0x03, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x05, 0x31, 0x15, 0x01, 0x01, 0xa1], 16);
export const HIGH: usize = memory.data<u8>([0x01, 0x01, 0x02, 0x04, 0, 0x10, 0, 0x20, 0, 0, 0, 0, 0x40, 0, 0x80, 0x02], 16);

/**
 * The bytes of the 16 at `p` the test looks at: those of the table, and a `g` or `G` that `nor`, `ard` or
 * `et` follows (case-blind: or-ing 0x20 folds exactly an upper-case letter onto its lower case). A `g` is
 * common in text, a stem after it rare; the scalar step checks again, within the text's end. The table's
 * hits are the bytes whose two entries do not AND to zero: an `eq` with zero, inverted in the mask (`gt_u`
 * takes four instructions on x64); its high nibbles come from a 16-bit shift, masked (an 8-bit shift is the
 * same two instructions plus a mask built each time).
 */
@inline export function textStops(p: usize, lowTable: v128, highTable: v128, nibble: v128, fold: v128, zero: v128, g: v128, n: v128, o: v128, a: v128, r: v128, e: v128, t: v128): i32 {
  const v = v128.load(p);
  const low = i8x16.swizzle(lowTable, v128.and(v, nibble));
  const high = i8x16.swizzle(highTable, v128.and(i16x8.shr_u(v, 4), nibble));
  const one = v128.or(v128.load(p + 1), fold);
  const two = v128.or(v128.load(p + 2), fold);
  const nor = v128.and(i8x16.eq(one, n), i8x16.eq(two, o));
  const ard = v128.and(i8x16.eq(one, a), i8x16.eq(two, r));
  const et = v128.and(i8x16.eq(one, e), i8x16.eq(two, t));
  const stem = v128.and(i8x16.eq(v128.or(v, fold), g), v128.or(v128.or(nor, ard), et));
  return (i8x16.bitmask(i8x16.eq(v128.and(low, high), zero)) ^ 0xffff) | i8x16.bitmask(stem);
}

/** Whether {@link textMayMatter} looks at byte `b`: a text of none of them never matters (the JS callers' short exit). */
export function auditLooksAt(b: u32): bool {
  const kind = load<u8>(KINDS + <usize>(b & 0xff));
  return kind != 0 && kind != QUOTE_KIND && kind != BACKSLASH_KIND;
}

/** Whether the UTF-8 text [start, end) may matter (see the file's head). Reads up to 3 bytes past `end` without their deciding anything. */
export function textMayMatter(start: usize, end: usize): bool {
  let i = start;
  // textStops's constants, held in locals through the loop.
  const lowTable = v128.load(LOW), highTable = v128.load(HIGH), nibble = splat(0x0f), fold = splat(0x20), zero = splat(0), g = splat(0x67);
  const n = splat(0x6e), o = splat(0x6f), a = splat(0x61), r = splat(0x72), e = splat(0x65), t = splat(0x74);
  for (; i + 16 <= end; i += 16) {
    for (let stops = textStops(i, lowTable, highTable, nibble, fold, zero, g, n, o, a, r, e, t); stops != 0; stops &= stops - 1) {
      const at = i + <usize>ctz(stops);
      const kind = load<u8>(KINDS + <usize>load<u8>(at));
      if (kind != 0 && kind != QUOTE_KIND && kind != BACKSLASH_KIND && byteMayMatter(start, at, end)) return true;
    }
  }
  for (; i < end; i++) {
    const kind = load<u8>(KINDS + <usize>load<u8>(i));
    if (kind != 0 && kind != QUOTE_KIND && kind != BACKSLASH_KIND && byteMayMatter(start, i, end)) return true;
  }
  return false;
}

/**
 * Whether the escape at `at` (a backslash in a literal) may make its text matter: any but `\n`, `\"`, `\\`,
 * `\/`, except a `\uXXXX` above ASCII that is no surrogate and that {@link byteMayMatter} would clear as UTF-8
 * (a JSON export may escape every non-ASCII character: `\u00e9` is as harmless as `é`). An ASCII one may
 * spell a role word's letter or its colon, a surrogate the tag block: flagged.
 */
export function escapeMatters(at: usize): bool {
  const e = <u32>load<u8>(at + 1);
  // `\n`, `\"`, `\\`, `\/` spell nothing the scan looks for.
  if (e != 0x75) return e != 0x6e && e != QUOTE && e != BACKSLASH && e != 0x2f;
  let code: u32 = 0;
  for (let k: usize = 2; k < 6; k++) {
    const c = <u32>load<u8>(at + k);
    let h: u32;
    if (c - 0x30 < 10) h = c - 0x30;
    else if ((c | 0x20) - 0x61 < 6) h = (c | 0x20) - 0x61 + 10;
    else return true;
    code = (code << 4) | h;
  }
  return code < 0x80 || (code >= 0xd800 && code <= 0xdfff) || code <= 0x9f || (code >= 0x1800 && code <= 0x183f) || (code >= 0x200b && code <= 0x200d) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2060 && code <= 0x2069) || (code >= 0xfec0 && code <= 0xfeff);
}

/** Whether byte `i` (a flagged kind, not a quote or backslash) may make the text [start, ...) matter. */
export function byteMayMatter(start: usize, i: usize, end: usize): bool {
  const b = <u32>load<u8>(i);
  const kind = load<u8>(KINDS + <usize>b);
  if (kind == FLAG) return true;
  if (kind == COLON_KIND) return roleBefore(start, i);
  if (kind == G) {
    // Or-ing 0x20 folds exactly the upper-case letter onto a lower-case one: `nor`, `ard`, `et` after the `g`.
    const next = load<u32>(i + 1) | 0x20202020;
    return (i + 4 <= end && ((next & 0xffffff) == 0x726f6e || (next & 0xffffff) == 0x647261)) || (i + 3 <= end && (next & 0xffff) == 0x7465);
  }
  if (kind != LEAD) return false;
  const second = <u32>load<u8>(i + 1);
  const third = <u32>load<u8>(i + 2);
  // The lead bytes of what `sanitize` removes above ASCII: C1 controls (C2 80-9F), U+180E (E1 A0 8E),
  // U+200B-200D and U+202A-202E (E2 80 ..), U+2060-2069 (E2 81 A0-A9), U+FEFF (EF BB BF), the tag block (F3 A0).
  if (b == 0xc2) return second <= 0x9f;
  if (b == 0xe1) return second == 0xa0;
  if (b == 0xe2) return (second == 0x80 && ((third >= 0x8b && third <= 0x8d) || (third >= 0xaa && third <= 0xae))) || (second == 0x81 && third >= 0xa0 && third <= 0xa9);
  if (b == 0xef) return second == 0xbb;
  return second == 0xa0;
}

function roleBefore(start: usize, colon: usize): bool {
  let end = colon;
  while (end > start) {
    const c = <u32>load<u8>(end - 1);
    if (c != 0x20 && c != 0x09) break;
    end--;
  }
  if (end == start) return false;
  // The last letter first: most colons in a text follow no role word.
  let last = <u32>load<u8>(end - 1);
  if (last >= 0x41 && last <= 0x5a) last |= 0x20;
  const words = <u32>load<u8>(ROLE_WORDS);
  let w = ROLE_WORDS + 1;
  for (let k: u32 = 0; k < words; k++) {
    const length = <usize>load<u8>(w);
    if (<u32>load<u8>(w + length) == last && end - start >= length && follows(end - length, end, w + 1, length)) return true;
    w += 1 + length;
  }
  return false;
}

/** Bytes from `at` (before `end`) spell the lower-case word at `word`, ASCII letters compared case-blind. */
function follows(at: usize, end: usize, word: usize, length: usize): bool {
  if (at + length > end) return false;
  for (let k: usize = 0; k < length; k++) {
    let b = <u32>load<u8>(at + k);
    if (b >= 0x41 && b <= 0x5a) b |= 0x20;
    if (b != <u32>load<u8>(word + k)) return false;
  }
  return true;
}
