import { COLON, COMMA, escaped, endOfString, LBRACE, MINUS, NINE, QUOTE, RBRACE, scanFrom, skipSpace, skipValue, ZERO } from "./json-skip.js";

/** What a pull needs of a record line to key it: the top-level `run_id`, `seat.seat_index` and `scorecard_version`. */
export interface RecordFacts {
  /** `run_id` when it is a string. */
  readonly runId: string | undefined;
  /** `seat.seat_index` when `seat` is an object and its `seat_index` a number. */
  readonly seatIndex: number | undefined;
  /** `scorecard_version` when it is a number. */
  readonly version: number | undefined;
}

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
  scanFrom(line, 0);
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
  scanFrom(line, start);
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
