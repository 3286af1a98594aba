import { ROLE_WORDS as TEXT_ROLE_WORDS } from "../../../views/text-prefilter.js";

/**
 * The text prefilter (src/views/text-prefilter.ts) over UTF-8 bytes, for texts a worker holds shredded: whether
 * the built-in control tokens, a character `sanitize` removes, or an injection pattern could apply to the text
 * of bytes `[start, end)`. A superset, like the prefilter: a text it flags is decoded and scanned exactly. With
 * `escaped`, the bytes are the inside of a JSON string literal, whose escapes other than `\n`, `\"`, `\\`,
 * `\/` and a `\u` of a character that does not matter by itself are flagged ({@link escapeMayMatter}).
 */
export function mayMatterUtf8(bytes: Uint8Array, start: number, end: number, escaped: boolean): boolean {
  for (let i = start; i < end; i++) {
    const b = bytes[i] as number;
    const kind = KINDS[b] as number;
    if (kind === 0 || kind === QUOTE) continue;
    if (kind === BACKSLASH) {
      if (!escaped) continue;
      if (escapeMayMatter(bytes, ++i)) return true;
      if (bytes[i] === 0x75) i += 4;
    } else if (byteMayMatter(bytes, start, i, end)) return true;
  }
  return false;
}

/**
 * A JSON string literal whose opening quote is at `open` (in a value ending before `end`): its closing quote's
 * index, and in {@link LITERAL} whether its text may matter, as {@link mayMatterUtf8} answers, in one pass.
 */
export function scanJsonString(bytes: Uint8Array, open: number, end: number): number {
  let flagged = false;
  let i = open + 1;
  for (;; i++) {
    // One table load a byte: the quote that ends the literal is a kind of its own.
    const kind = KINDS[bytes[i] as number] as number;
    if (kind === 0) continue;
    if (kind === QUOTE) break;
    if (kind === BACKSLASH) {
      i++;
      if (!flagged && escapeMayMatter(bytes, i)) flagged = true;
      if (bytes[i] === 0x75) i += 4;
    } else if (!flagged && byteMayMatter(bytes, open + 1, i, end)) flagged = true;
  }
  LITERAL.mayMatter = flagged;
  return i;
}

/** What {@link scanJsonString} found of the last literal. */
export const LITERAL = { mayMatter: false };

/** Whether byte `i` (a flagged kind, not a backslash) may make the text `[start, ...)` matter. */
function byteMayMatter(bytes: Uint8Array, start: number, i: number, end: number): boolean {
  const b = bytes[i] as number;
  switch (KINDS[b]) {
    case FLAG:
      return true;
    case COLON:
      return roleBefore(bytes, start, i);
    case G:
      return follows(bytes, i + 1, end, NOR) || follows(bytes, i + 1, end, ARD) || follows(bytes, i + 1, end, ET);
    default:
      return wideMayMatter(b, bytes[i + 1] as number, bytes[i + 2] as number);
  }
}

const FLAG = 1;
const COLON = 2;
const G = 3;
const BACKSLASH = 4;
const LEAD = 5;
const QUOTE = 6;

/** What each byte may start: controls but tab and newline, DEL and the tag characters `<[{#` flag a text at once. */
const KINDS = (() => {
  const kinds = new Uint8Array(256);
  for (let b = 0; b < 0x20; b++) if (b !== 0x09 && b !== 0x0a) kinds[b] = FLAG;
  for (const c of "<[{#\x7f") kinds[c.charCodeAt(0)] = FLAG;
  kinds[0x3a] = COLON;
  kinds[0x67] = G;
  kinds[0x47] = G;
  kinds[0x5c] = BACKSLASH;
  kinds[0x22] = QUOTE;
  for (const b of [0xc2, 0xe1, 0xe2, 0xef, 0xf3]) kinds[b] = LEAD;
  return kinds;
})();

/** `\n`, `\"`, `\\`, `\/`: escapes that spell nothing the scan looks for. */
const SAFE_ESCAPES = [0x6e, 0x22, 0x5c, 0x2f];

/**
 * Whether the escape whose letter is at `at` (after the backslash) may make a text matter: any but the safe
 * ones, except a `\uXXXX` above ASCII that is no surrogate and that {@link wideMayMatter} would clear as
 * UTF-8 (a JSON export may escape every non-ASCII character: `\u00e9` is as harmless as `é`). An ASCII one
 * may spell a role word's letter or its colon, a surrogate the tag block: flagged.
 */
function escapeMayMatter(bytes: Uint8Array, at: number): boolean {
  const e = bytes[at] as number;
  if (e !== 0x75) return !SAFE_ESCAPES.includes(e);
  let code = 0;
  for (let k = 1; k <= 4; k++) {
    const h = HEX[bytes[at + k] as number] as number;
    if (h === 0xff) return true;
    code = code * 16 + h;
  }
  return code < 0x80 || (code >= 0xd800 && code <= 0xdfff) || codeMayMatter(code);
}

/** {@link wideMayMatter} of a character's UTF-8 (above ASCII, no surrogate), from its code point. */
function codeMayMatter(code: number): boolean {
  return code <= 0x9f || (code >= 0x1800 && code <= 0x183f) || (code >= 0x200b && code <= 0x200d) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2060 && code <= 0x2069) || (code >= 0xfec0 && code <= 0xfeff);
}

/** A hex digit's value, 0xff for any other byte. */
const HEX = (() => {
  const hex = new Uint8Array(256).fill(0xff);
  for (let d = 0; d < 16; d++) hex["0123456789abcdef".charCodeAt(d)] = hex["0123456789ABCDEF".charCodeAt(d)] = d;
  return hex;
})();

/**
 * The lead bytes of the characters `sanitize` removes above ASCII: C1 controls (C2 80-9F), U+180E (E1 A0 8E),
 * U+200B-200D and U+202A-202E (E2 80 ..), U+2060-2069 (E2 81 A0-A9), U+FEFF (EF BB BF), the tag block (F3 A0).
 */
function wideMayMatter(lead: number, second: number, third: number): boolean {
  switch (lead) {
    case 0xc2:
      return second <= 0x9f;
    case 0xe1:
      return second === 0xa0;
    case 0xe2:
      return (second === 0x80 && ((third >= 0x8b && third <= 0x8d) || (third >= 0xaa && third <= 0xae))) || (second === 0x81 && third >= 0xa0 && third <= 0xa9);
    case 0xef:
      return second === 0xbb;
    default:
      return second === 0xa0;
  }
}

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const NOR = ascii("nor");
const ARD = ascii("ard");
const ET = ascii("et");
/** Words a `:` follows in a role header or a `SYSTEM:` line (spaces and tabs between); the wasm pass gets them too. */
export const ROLE_WORDS = TEXT_ROLE_WORDS.map(ascii);

function roleBefore(bytes: Uint8Array, start: number, colon: number): boolean {
  let end = colon;
  while (end > start && (bytes[end - 1] === 0x20 || bytes[end - 1] === 0x09)) end--;
  return ROLE_WORDS.some((w) => end - w.length >= start && follows(bytes, end - w.length, end, w));
}

/** Bytes from `at` (before `end`) spell lower-case `word`, ASCII letters compared case-blind. */
function follows(bytes: Uint8Array, at: number, end: number, word: Uint8Array): boolean {
  if (at + word.length > end) return false;
  for (let k = 0; k < word.length; k++) {
    const b = bytes[at + k] as number;
    if ((b >= 0x41 && b <= 0x5a ? b | 0x20 : b) !== word[k]) return false;
  }
  return true;
}
