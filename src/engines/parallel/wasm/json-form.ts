// AssemblyScript (see scan.ts), not TypeScript.
//
// The JSON.stringify-form check's one home (src/views/is-stringify-form.ts's isStringifyForm calls it for both
// engines), over a JSON value in this module's memory whose bytes are valid UTF-8 (a walk's line was checked):
// whether the text is exactly what JSON.stringify(JSON.parse(text)) gives. Conservative: some texts in that form
// answer no. A literal's plain run is skipped 16 bytes at a time; what needs JS to tell (a number other than a
// short integer: JS decides how it spells a double; nesting or keys past the areas below) answers UNSURE, and
// the caller asks the definition itself. The walk checks a value of any JSON as it skips it (skip.ts's skipForm,
// with this file's rules for keys, numbers and escapes); this pass takes the other values: a walk's typed
// JSON, and ranges the walk did not check.

import { BACKSLASH, COLON, COMMA, LBRACE, LBRACKET, QUOTE, RBRACE, RBRACKET } from "./scan";

export const NOT_FORM: u32 = 0;
export const FORM: u32 = 1;
export const UNSURE: u32 = 2;

const MAX_DEPTH: u32 = 256;
const MAX_KEYS: u32 = 1024;
/** Per open container, 1 when its parent is an object. */
const PARENTS: usize = memory.data(MAX_DEPTH);
/** Per open object, the index of its first key in KEYS. */
const OBJECT_KEYS: usize = memory.data(MAX_DEPTH * 4);
/** The open objects' keys: [start, end) of each key's text. */
const KEYS: usize = memory.data(MAX_KEYS * 8);

/** FORM, NOT_FORM or UNSURE for the JSON value [start, end) (valid JSON, valid UTF-8). */
export function jsonForm(start: usize, end: usize): u32 {
  let depth: u32 = 0;
  let objects: u32 = 0;
  let keyCount: u32 = 0;
  let inObject = false;
  // Whether the next literal is an object's key: after `{`, or after `,` in an object.
  let expectKey = false;
  let i = start;
  while (i < end) {
    const b = <u32>load<u8>(i);
    if (b == QUOTE) {
      const open = i;
      let j = i + 1;
      let escaped = false;
      for (;;) {
        if (j + 16 <= end) {
          const v = v128.load(j);
          const stops = i8x16.bitmask(v128.or(i8x16.eq(v, i8x16.splat(<i8>QUOTE)), i8x16.eq(v, i8x16.splat(<i8>BACKSLASH))));
          if (stops == 0) {
            j += 16;
            continue;
          }
          j += <usize>ctz(stops);
        } else if (j >= end) return UNSURE;
        const c = <u32>load<u8>(j);
        if (c == QUOTE) break;
        if (c != BACKSLASH) {
          j++;
          continue;
        }
        escaped = true;
        j = formEscapeEnd(j);
        if (j == 0) return NOT_FORM;
      }
      if (expectKey) {
        const answer = keyForm(open + 1, j, escaped, load<u32>(OBJECT_KEYS + (<usize>(objects - 1) << 2)), keyCount);
        if (answer != FORM) return answer;
        keyCount++;
        expectKey = false;
      }
      i = j + 1;
    } else if (b == LBRACE || b == LBRACKET) {
      if (depth == MAX_DEPTH) return UNSURE;
      store<u8>(PARENTS + <usize>depth, inObject ? 1 : 0);
      depth++;
      inObject = b == LBRACE;
      expectKey = inObject;
      if (inObject) {
        store<u32>(OBJECT_KEYS + (<usize>objects << 2), keyCount);
        objects++;
      }
      i++;
    } else if (b == RBRACE || b == RBRACKET) {
      if (depth == 0) return UNSURE;
      depth--;
      if (b == RBRACE) {
        objects--;
        keyCount = load<u32>(OBJECT_KEYS + (<usize>objects << 2));
      }
      inObject = load<u8>(PARENTS + <usize>depth) != 0;
      expectKey = false;
      i++;
    } else if (b == COMMA) {
      expectKey = inObject;
      i++;
    } else if (b == COLON) {
      expectKey = false;
      i++;
    } else if (b == 0x2d || b - 0x30 < 10) {
      // A number: a short integer is spelled as JS spells it; any other is JS's to tell.
      let j = i + 1;
      for (; j < end; j++) {
        const c = <u32>load<u8>(j);
        if (c - 0x30 >= 10 && c != 0x2e && c != 0x65 && c != 0x45 && c != 0x2b && c != 0x2d) break;
      }
      if (!numberForm(i, j)) return UNSURE;
      i = j;
    } else if (isLiteralLetter(b)) i++;
    else return NOT_FORM;
  }
  return FORM;
}

/**
 * jsonForm's answer after an object's key [start, end) (its text between the quotes; `escaped`: it holds an
 * escape), the object's keys so far being KEYS [from, count): FORM when the key may stand as it is, and it
 * is then recorded at `count`.
 */
export function keyForm(start: usize, end: usize, escaped: bool, from: u32, count: u32): u32 {
  if (escaped) return NOT_FORM;
  // A key starting with a digit may be an array index, which JSON.parse lists first.
  if (end > start && <u32>load<u8>(start) - 0x30 < 10) return NOT_FORM;
  if (count == MAX_KEYS) return UNSURE;
  const length = end - start;
  for (let k = from; k < count; k++) {
    const at = <usize>load<u32>(KEYS + (<usize>k << 3));
    if (<usize>load<u32>(KEYS + (<usize>k << 3), 4) - at == length && memory.compare(at, start, length) == 0) return NOT_FORM;
  }
  store<u32>(KEYS + (<usize>count << 3), <u32>start);
  store<u32>(KEYS + (<usize>count << 3), <u32>end, 4);
  return FORM;
}

/** Whether the number [p, end) is spelled as JS spells it: up to 15 digits, no leading zero (but `0` itself), not `-0`, no point or exponent. */
export function numberForm(p: usize, end: usize): bool {
  const digits = <u32>load<u8>(p) == 0x2d ? p + 1 : p;
  if (end == digits || end - digits > 15 || (<u32>load<u8>(digits) == 0x30 && (end - digits != 1 || digits != p))) return false;
  for (let i = digits; i < end; i++) if (<u32>load<u8>(i) - 0x30 >= 10) return false;
  return true;
}

/** A byte of `true`, `false` or `null`. */
@inline function isLiteralLetter(b: u32): bool {
  return b == 0x74 || b == 0x72 || b == 0x75 || b == 0x65 || b == 0x66 || b == 0x61 || b == 0x6c || b == 0x73 || b == 0x6e;
}

/** After the escape at `at` (a backslash), when it is one JSON.stringify writes; else 0. */
export function formEscapeEnd(at: usize): usize {
  const e = <u32>load<u8>(at + 1);
  // The escapes JSON.stringify writes with one letter: \" \\ \b \f \n \r \t.
  if (e == QUOTE || e == BACKSLASH || e == 0x62 || e == 0x66 || e == 0x6e || e == 0x72 || e == 0x74) return at + 2;
  return e == 0x75 && controlEscape(at + 2) ? at + 6 : 0;
}

/** At `at`, four lower-case hex digits of a control character JSON.stringify writes as `\u00xx` (not one of \b \t \n \f \r). */
function controlEscape(at: usize): bool {
  if (<u32>load<u8>(at) != 0x30 || <u32>load<u8>(at + 1) != 0x30) return false;
  const hi = <u32>load<u8>(at + 2);
  const lo = <u32>load<u8>(at + 3);
  if (hi != 0x30 && hi != 0x31) return false;
  let value: u32 = 0;
  if (lo - 0x30 < 10) value = lo - 0x30;
  else if (lo - 0x61 < 6) value = lo - 0x61 + 10;
  else return false;
  const code = (hi - 0x30) * 16 + value;
  return code != 0x08 && code != 0x09 && code != 0x0a && code != 0x0c && code != 0x0d;
}
