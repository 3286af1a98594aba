import { isUtf8 } from "node:buffer";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// What a byte outside a string literal may be in JSON.stringify's text: 0 never (whitespace), 1 structural or
// a literal's letter, 2 a number's first byte, 3 a quote.
const OUTSIDE = new Uint8Array(256);
for (const c of "{}[]:,truefalsn") OUTSIDE[c.charCodeAt(0)] = 1;
for (const c of "-0123456789") OUTSIDE[c.charCodeAt(0)] = 2;
OUTSIDE[QUOTE] = 3;
// A number's bytes.
const NUMBER = new Uint8Array(256);
for (const c of "-+.eE0123456789") NUMBER[c.charCodeAt(0)] = 1;

// Inside a literal: 1 for the bytes that end the plain run (quote, backslash, and non-ASCII, which must be valid UTF-8).
const INSIDE = new Uint8Array(256);
INSIDE[QUOTE] = 1;
INSIDE[BACKSLASH] = 1;
for (let b = 0x80; b < 0x100; b++) INSIDE[b] = 1;

// The escapes JSON.stringify writes with one letter; any other control character it writes as `\u00xx`.
const SHORT_ESCAPES = new Set([0x22, 0x5c, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const SHORT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/** Open objects' keys, as `[start, end)` pairs; where each open object's keys begin; whether each open container's parent is an object (shared, reused). */
const keys: number[] = [];
const objectKeysAt: number[] = [];
const parents: boolean[] = [];

/**
 * Whether the JSON text in `bytes` `[start, end)` (valid JSON, as the walker vouched) is exactly what
 * `JSON.stringify(JSON.parse(text))` gives: no whitespace between tokens, numbers spelled as JS spells them,
 * escapes only where and as JSON.stringify writes them, valid UTF-8, no key twice in an object, no key
 * starting with a digit (JSON.parse lists array-index keys first, which would reorder them) nor written with escapes. When it is, a
 * view can write the bytes as the JSON text itself (its column then holds the bytes `JSON.stringify` would
 * give); when not, it parses and stringifies. Conservative: some texts in that form are answered false.
 * `utf8`: the bytes are known to be valid UTF-8 (a walk's, whose line was checked), so not checked again.
 */
export function isStringifyForm(bytes: Uint8Array, start = 0, end = bytes.length, utf8 = false): boolean {
  let ascii = true;
  keys.length = 0;
  objectKeysAt.length = 0;
  parents.length = 0;
  let inObject = false;
  // Whether the next string literal is an object's key: after `{` or after `,` in an object.
  let expectKey = false;
  for (let i = start; i < end; ) {
    const b = bytes[i] as number;
    switch (OUTSIDE[b]) {
      case 0:
        return false;
      case 1:
        if (b === 0x7b) {
          parents.push(inObject);
          inObject = true;
          objectKeysAt.push(keys.length);
          expectKey = true;
        } else if (b === 0x5b) {
          parents.push(inObject);
          inObject = false;
          expectKey = false;
        } else if (b === 0x7d || b === 0x5d) {
          if (b === 0x7d) keys.length = objectKeysAt.pop() as number;
          inObject = parents.pop() as boolean;
          expectKey = false;
        } else if (b === 0x2c) expectKey = inObject;
        else if (b === 0x3a) expectKey = false;
        i++;
        break;
      case 2: {
        let j = i + 1;
        while (j < end && NUMBER[bytes[j] as number] === 1) j++;
        if (!plainNumber(bytes, i, j)) return false;
        i = j;
        break;
      }
      default: {
        // A string literal.
        const open = i;
        let j = i + 1;
        let escaped = false;
        for (;;) {
          const c = bytes[j] as number;
          if (INSIDE[c] === 0) {
            j++;
            continue;
          }
          if (c === QUOTE) break;
          if (c === BACKSLASH) {
            escaped = true;
            const e = bytes[j + 1] as number;
            if (SHORT_ESCAPES.has(e)) j += 2;
            else if (e === 0x75 && controlEscape(bytes, j + 2)) j += 6;
            else return false;
          } else {
            ascii = false;
            j++;
          }
        }
        if (expectKey) {
          if (escaped || !newKey(bytes, open + 1, j)) return false;
          expectKey = false;
        }
        i = j + 1;
      }
    }
  }
  return ascii || utf8 || isUtf8(bytes.subarray(start, end));
}

/** `\u` followed at `at` by four lowercase hex digits naming a control character JSON.stringify writes so. */
function controlEscape(bytes: Uint8Array, at: number): boolean {
  if (bytes[at] !== 0x30 || bytes[at + 1] !== 0x30) return false;
  const hi = bytes[at + 2] as number;
  const lo = bytes[at + 3] as number;
  if (hi !== 0x30 && hi !== 0x31) return false;
  const loValue = lo >= 0x30 && lo <= 0x39 ? lo - 0x30 : lo >= 0x61 && lo <= 0x66 ? lo - 0x61 + 10 : -1;
  return loValue >= 0 && !SHORT_CONTROLS.has((hi - 0x30) * 16 + loValue);
}

/** A number as JS writes it: a short integer without sign trouble, or whatever `String(Number(text))` gives back. */
function plainNumber(bytes: Uint8Array, start: number, end: number): boolean {
  const i = bytes[start] === 0x2d ? start + 1 : start;
  let digits = true;
  for (let j = i; j < end; j++) if ((bytes[j] as number) < 0x30 || (bytes[j] as number) > 0x39) digits = false;
  // Up to 15 digits, no leading zero (but `0` itself), not `-0`: exact, and written back the same.
  if (digits && end - i <= 15 && end > i && (bytes[i] !== 0x30 || (end - i === 1 && i === start))) return true;
  let text = "";
  for (let j = start; j < end; j++) text += String.fromCharCode(bytes[j] as number);
  return String(Number(text)) === text;
}

/** Records the key `[start, end)` of the innermost object; false when it starts with a digit or is there already. */
function newKey(bytes: Uint8Array, start: number, end: number): boolean {
  const first = bytes[start] as number;
  if (end > start && first >= 0x30 && first <= 0x39) return false;
  const length = end - start;
  for (let k = objectKeysAt[objectKeysAt.length - 1] as number; k < keys.length; k += 2) {
    const s = keys[k] as number;
    if ((keys[k + 1] as number) - s !== length) continue;
    let same = true;
    for (let m = 0; m < length && same; m++) same = bytes[s + m] === bytes[start + m];
    if (same) return false;
  }
  keys.push(start, end);
  return true;
}
