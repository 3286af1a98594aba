import { isRecord } from "../core/is-record.js";
import { endOfString, scanFrom, skipSpace, skipValue, UNBOUNDED } from "./json-skip.js";

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
  const expected = isRecord(parsed) ? parsed[field] : undefined;
  if (!Array.isArray(expected)) throw new SyntaxError(`Expected a JSON object with a "${field}" array`);
  let slices: string[] = [];
  // JSON.parse has vouched for the text: the scan meets no control character and nothing it declines.
  scanFrom(text, 0);
  let i = skipSpace(text, 0) + 1; // past the opening brace
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] === "}") break;
    const keyEnd = endOfString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd) + 1; // past ':'
    i = skipSpace(text, i);
    // A repeated key: JSON.parse keeps the last one, so do we.
    let valueEnd: number;
    if (key === field) [slices, valueEnd] = elements(text, i);
    else valueEnd = skipValue(text, i, UNBOUNDED);
    i = skipSpace(text, valueEnd);
    if (text[i] === ",") i++;
  }
  if (slices.length !== expected.length) throw new SyntaxError(`Found ${slices.length} "${field}" elements, JSON.parse found ${expected.length}`);
  return slices.map((slice, i) => ({ text: slice, value: expected[i] as unknown }));
}

/** The raw elements of the array starting at `start` (a `[`), and the index just past it. */
function elements(text: string, start: number): [string[], number] {
  const out: string[] = [];
  let i = start + 1;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] === "]") return [out, i + 1];
    const end = skipValue(text, i, UNBOUNDED);
    out.push(text.slice(i, end));
    i = skipSpace(text, end);
    if (text[i] === ",") i++;
  }
}
