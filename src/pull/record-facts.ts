/** What a pull needs of a record line to key it: the top-level `run_id`, `seat.seat_index` and `scorecard_version`. */
export interface RecordFacts {
  /** `run_id` when it is a string. */
  readonly runId: string | undefined;
  /** `seat.seat_index` when `seat` is an object and its `seat_index` a number. */
  readonly seatIndex: number | undefined;
  /** `scorecard_version` when it is a number. */
  readonly version: number | undefined;
}

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const PLUS = 43;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const COLON = 58;
const LBRACKET = 91;
const BACKSLASH = 92;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;
/** Deeper nesting is declined (JSON.parse then decides), so the validating skip may recurse. */
const MAX_DEPTH = 64;

/** Set by `endOfString`: the string just scanned holds an escape, so its raw text is not its value. */
let escaped = false;
/** The line's first backslash at or after the scan, found once and moved on as strings are passed (-1: none left). */
let nextBackslash = -1;
/**
 * A JSON string may hold no character below U+0020. Lines with any are left to JSON.parse (tab, CR and LF
 * are whitespace outside strings, but compact records hold none), so the string scan can skip contents.
 */
const CONTROL = /[\u0000-\u001f]/;

/**
 * {@link RecordFacts} of a line that is a JSON object, read without building the record: a validating
 * scan that allocates only the few values it returns. A no-op rerun keyed every record by JSON.parse,
 * a fifth of its time, building objects and strings it dropped at once (issue 21).
 *
 * Undefined ("declined") for anything it does not vouch for: a line that is not valid JSON or not an
 * object, a control character anywhere, a key with an escape in it, nesting past 64 levels. The caller
 * then parses with JSON.parse, so an answer here always equals what JSON.parse's value gives (a
 * repeated key: the last one, as JSON.parse keeps).
 */
export function recordFacts(line: string): RecordFacts | undefined {
  let runId: string | undefined;
  let seatIndex: number | undefined;
  let version: number | undefined;
  if (CONTROL.test(line)) return undefined;
  nextBackslash = line.indexOf("\\");
  let i = skipSpace(line, 0);
  if (line.charCodeAt(i) !== LBRACE) return undefined;
  i = skipSpace(line, i + 1);
  if (line.charCodeAt(i) === RBRACE) i++;
  else {
    for (;;) {
      const keyStart = i + 1;
      const keyEnd = keyAt(line, i);
      if (keyEnd < 0) return undefined;
      i = skipSpace(line, keyEnd);
      if (line.charCodeAt(i) !== COLON) return undefined;
      const at = skipSpace(line, i + 1);
      const end = skipValue(line, at, 1);
      if (end < 0) return undefined;
      const name = keyEnd - 1 - keyStart;
      if (name === 6 && line.startsWith("run_id", keyStart)) {
        // Parsed apart, never sliced: a slice may keep the whole line alive (docs/decisions.md "hot code
        // shape", sliced strings), and the run id (in record keys) outlives the line by the whole pull.
        runId = line.charCodeAt(at) === QUOTE ? (JSON.parse(line.slice(at, end)) as string) : undefined;
      } else if (name === 4 && line.startsWith("seat", keyStart)) {
        if (line.charCodeAt(at) !== LBRACE) seatIndex = undefined;
        else {
          const seat = seatIndexIn(line, at);
          if (seat === DECLINED) return undefined;
          seatIndex = seat;
        }
      } else if (name === 17 && line.startsWith("scorecard_version", keyStart)) {
        version = isNumberStart(line.charCodeAt(at)) ? Number(line.slice(at, end)) : undefined;
      }
      i = skipSpace(line, end);
      const c = line.charCodeAt(i);
      if (c === COMMA) {
        i = skipSpace(line, i + 1);
        continue;
      }
      if (c !== RBRACE) return undefined;
      i++;
      break;
    }
  }
  if (skipSpace(line, i) !== line.length) return undefined;
  return { runId, seatIndex, version };
}

const DECLINED = Symbol("declined");

/** `seat_index` of the (already validated) object at `start`, the last one if repeated. */
function seatIndexIn(line: string, start: number): number | undefined | typeof DECLINED {
  let seatIndex: number | undefined;
  // A second pass over what skipValue passed: the backslash search starts again from here.
  nextBackslash = line.indexOf("\\", start);
  let i = skipSpace(line, start + 1);
  if (line.charCodeAt(i) === RBRACE) return undefined;
  for (;;) {
    const keyStart = i + 1;
    const keyEnd = keyAt(line, i);
    if (keyEnd < 0) return DECLINED;
    const at = skipSpace(line, skipSpace(line, keyEnd) + 1);
    const end = skipValue(line, at, 2);
    if (keyEnd - 1 - keyStart === 10 && line.startsWith("seat_index", keyStart)) {
      seatIndex = isNumberStart(line.charCodeAt(at)) ? Number(line.slice(at, end)) : undefined;
    }
    i = skipSpace(line, end);
    if (line.charCodeAt(i) !== COMMA) return seatIndex;
    i = skipSpace(line, i + 1);
  }
}

/** The end of the key string at `i`; -1 when there is none or it holds an escape (its raw text would not be its name). */
function keyAt(line: string, i: number): number {
  if (line.charCodeAt(i) !== QUOTE) return -1;
  const end = endOfString(line, i);
  return end < 0 || escaped ? -1 : end;
}

function isNumberStart(c: number): boolean {
  return c === MINUS || (c >= ZERO && c <= NINE);
}

/** The index just past the JSON value at `i`, or -1 when there is no valid one (or it nests too deep). */
function skipValue(line: string, i: number, depth: number): number {
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
function endOfString(line: string, start: number): number {
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
function skipSpace(line: string, i: number): number {
  return line.charCodeAt(i) > SPACE ? i : skipSpaces(line, i);
}

function skipSpaces(line: string, i: number): number {
  for (let c = line.charCodeAt(i); c === SPACE || c === TAB || c === LF || c === CR; c = line.charCodeAt(++i));
  return i;
}
