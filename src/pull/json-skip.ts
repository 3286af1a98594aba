/**
 * Where a JSON value in a string ends, checked against JSON's grammar on the way: the validating scan
 * behind a pull's record keys (record-facts.ts) and its records' raw text (record-slices.ts). Char codes,
 * and strings skipped quote to quote with indexOf (native, and most of a record's bytes are string contents).
 */

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
export const QUOTE = 34;
const PLUS = 43;
export const COMMA = 44;
export const MINUS = 45;
const DOT = 46;
export const ZERO = 48;
export const NINE = 57;
export const COLON = 58;
const LBRACKET = 91;
const BACKSLASH = 92;
export const RBRACKET = 93;
export const LBRACE = 123;
export const RBRACE = 125;
/** Deeper nesting is declined (JSON.parse then decides), so the validating skip may recurse. */
const MAX_DEPTH = 64;
/** A starting depth that never reaches MAX_DEPTH: for text JSON.parse has vouched for, where nothing is declined. */
export const UNBOUNDED = Number.NEGATIVE_INFINITY;

/** Set by `endOfString`: the string just scanned holds an escape, so its raw text is not its value. */
export let escaped = false;
/** The line's first backslash at or after the scan, found once and moved on as strings are passed (-1: none left). */
let nextBackslash = -1;

/**
 * Starts a scan of `line` at `start`. A string may hold no control character (below U+0020): the caller has
 * ruled them out for the whole line (JSON.parse's word, or a test), so string contents are not read.
 */
export function scanFrom(line: string, start: number): void {
  nextBackslash = line.indexOf("\\", start);
}

/** The index just past the JSON value at `i`, or -1 when there is no valid one (or it nests too deep). */
export function skipValue(line: string, i: number, depth: number): number {
  const c = line.charCodeAt(i);
  if (c === QUOTE) return endOfString(line, i);
  if (c === LBRACE) return depth >= MAX_DEPTH ? -1 : skipObject(line, i, depth + 1);
  if (c === LBRACKET) return depth >= MAX_DEPTH ? -1 : skipArray(line, i, depth + 1);
  if (c === 116) return line.startsWith("true", i) ? i + 4 : -1;
  if (c === 102) return line.startsWith("false", i) ? i + 5 : -1;
  if (c === 110) return line.startsWith("null", i) ? i + 4 : -1;
  return endOfNumber(line, i);
}

function skipObject(line: string, start: number, depth: number): number {
  let i = skipSpace(line, start + 1);
  if (line.charCodeAt(i) === RBRACE) return i + 1;
  for (;;) {
    if (line.charCodeAt(i) !== QUOTE) return -1;
    i = endOfString(line, i);
    if (i < 0) return -1;
    i = skipSpace(line, i);
    if (line.charCodeAt(i) !== COLON) return -1;
    i = skipValue(line, skipSpace(line, i + 1), depth);
    if (i < 0) return -1;
    i = skipSpace(line, i);
    const c = line.charCodeAt(i);
    if (c === RBRACE) return i + 1;
    if (c !== COMMA) return -1;
    i = skipSpace(line, i + 1);
  }
}

function skipArray(line: string, start: number, depth: number): number {
  let i = skipSpace(line, start + 1);
  if (line.charCodeAt(i) === RBRACKET) return i + 1;
  for (;;) {
    i = skipValue(line, i, depth);
    if (i < 0) return -1;
    i = skipSpace(line, i);
    const c = line.charCodeAt(i);
    if (c === RBRACKET) return i + 1;
    if (c !== COMMA) return -1;
    i = skipSpace(line, i + 1);
  }
}

/**
 * Past the closing quote of the string at `start`; -1 if unterminated or an escape is not valid JSON. Sets
 * `escaped`. Jumps quote to quote with indexOf (native, and most of a record's bytes are string contents);
 * control characters, which a JSON string may not hold, were ruled out for the whole line up front.
 */
export function endOfString(line: string, start: number): number {
  escaped = false;
  let i = start + 1;
  for (;;) {
    const quote = line.indexOf('"', i);
    if (quote < 0) return -1;
    if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = line.indexOf("\\", i);
    if (nextBackslash === -1 || nextBackslash > quote) return quote + 1;
    escaped = true;
    const at = nextBackslash + 1;
    const e = line.charCodeAt(at);
    if (e === 117) {
      for (let k = 1; k <= 4; k++) if (!isHex(line.charCodeAt(at + k))) return -1;
      i = at + 5;
    } else if (e === QUOTE || e === BACKSLASH || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) i = at + 1;
    else return -1;
    nextBackslash = line.indexOf("\\", i);
  }
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Past the number at `start` (JSON's grammar: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`); -1 if there is none. */
function endOfNumber(line: string, start: number): number {
  let i = start;
  if (line.charCodeAt(i) === MINUS) i++;
  const first = line.charCodeAt(i);
  if (first === ZERO) i++;
  else if (first > ZERO && first <= NINE) i = digits(line, i);
  else return -1;
  if (line.charCodeAt(i) === DOT) {
    const after = digits(line, i + 1);
    if (after === i + 1) return -1;
    i = after;
  }
  const e = line.charCodeAt(i);
  if (e === 101 || e === 69) {
    i++;
    const sign = line.charCodeAt(i);
    if (sign === PLUS || sign === MINUS) i++;
    const after = digits(line, i);
    if (after === i) return -1;
    i = after;
  }
  return i;
}

function digits(line: string, i: number): number {
  for (let c = line.charCodeAt(i); c >= ZERO && c <= NINE; c = line.charCodeAt(++i));
  return i;
}

/** Small enough to compile into its callers: compact JSON has no whitespace, so the loop is rarely entered. */
export function skipSpace(line: string, i: number): number {
  return line.charCodeAt(i) > SPACE ? i : skipSpaces(line, i);
}

function skipSpaces(line: string, i: number): number {
  for (let c = line.charCodeAt(i); c === SPACE || c === TAB || c === LF || c === CR; c = line.charCodeAt(++i));
  return i;
}
