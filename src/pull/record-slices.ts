/**
 * The raw text of each element of the array under `field` in a JSON object, exactly as it appears in
 * `text` (no re-serialisation), e.g. the records of a `{"records": [...]}` body. Throws SyntaxError when
 * `text` is not JSON or has no such array.
 */
export function recordSlices(text: string, field = "records"): string[] {
  return recordEntries(text, field).map((entry) => entry.text);
}

/** {@link recordSlices} with each element's value as JSON.parse gave it, so no caller parses an element twice. */
export function recordEntries(text: string, field = "records"): { text: string; value: unknown }[] {
  const parsed: unknown = JSON.parse(text);
  const expected = isObject(parsed) ? parsed[field] : undefined;
  if (!Array.isArray(expected)) throw new SyntaxError(`Expected a JSON object with a "${field}" array`);
  let slices: string[] = [];
  let i = skipSpace(text, 0) + 1; // past the opening brace, which JSON.parse has vouched for
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] === "}") break;
    const keyEnd = endOfString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd) + 1; // past ':'
    i = skipSpace(text, i);
    const valueEnd = endOfValue(text, i);
    // A repeated key: JSON.parse keeps the last one, so do we.
    if (key === field) slices = elements(text, i);
    i = skipSpace(text, valueEnd);
    if (text[i] === ",") i++;
  }
  if (slices.length !== expected.length) throw new SyntaxError(`Found ${slices.length} "${field}" elements, JSON.parse found ${expected.length}`);
  return slices.map((slice, i) => ({ text: slice, value: expected[i] as unknown }));
}

/** The raw elements of the array starting at `start` (a `[`). */
function elements(text: string, start: number): string[] {
  const out: string[] = [];
  let i = start + 1;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] === "]") return out;
    const end = endOfValue(text, i);
    out.push(text.slice(i, end));
    i = skipSpace(text, end);
    if (text[i] === ",") i++;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

// By char codes, strings skipped with indexOf: a part of a night by run reads each record this way (issue 37).
function endOfValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return endOfString(text, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === QUOTE) j = endOfString(text, j) - 1;
      else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        if (--depth === 0) return j + 1;
      }
    }
    return text.length;
  }
  let j = i;
  while (j < text.length && !isSpace(text.charCodeAt(j)) && !isEnd(text.charCodeAt(j))) j++;
  return j;
}

/** The index just past the closing quote of the string starting at `i`: the next quote after an even run of backslashes. */
function endOfString(text: string, i: number): number {
  for (let from = i + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let b = quote - 1;
    while (b >= from && text.charCodeAt(b) === BACKSLASH) b--;
    if ((quote - 1 - b) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function isEnd(c: number): boolean {
  return c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
