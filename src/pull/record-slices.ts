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

function endOfValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return endOfString(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = endOfString(text, j) - 1;
      else if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        if (--depth === 0) return j + 1;
      }
    }
    return text.length;
  }
  let j = i;
  while (j < text.length && !",}] \t\r\n".includes(text[j] as string)) j++;
  return j;
}

/** The index just past the closing quote of the string starting at `i`. */
function endOfString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === '"') return j + 1;
  }
  return text.length;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && " \t\r\n".includes(text[i] as string)) i++;
  return i;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
