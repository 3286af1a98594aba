import { Buffer, isUtf8 } from "node:buffer";
import { inScratch, SCRATCH_AT } from "../core/scan-module.js";
import { tryParseJson } from "../core/try-parse-json.js";

const FORM = 1;
const UNSURE = 2;

/**
 * Whether the JSON text in `bytes` `[start, end)` (valid JSON, as the walker vouched) is exactly what
 * `JSON.stringify(JSON.parse(text))` gives. When it is, a view can write the bytes as the JSON text itself
 * (its column then holds the bytes `JSON.stringify` would give); when not, it parses and stringifies.
 * The rules (no whitespace, numbers spelled as JS spells them, escapes only as JSON.stringify writes them, no
 * key twice nor starting with a digit nor written with escapes) have one home, the scan module
 * (src/engines/parallel/wasm/json-form.ts), which every caller runs; what it leaves to JS (a number other
 * than a short integer: JS decides how it spells a double; nesting past its areas) the definition answers.
 * `utf8`: the bytes are known to be valid UTF-8 (a walk's, whose line was checked), so not checked again.
 */
export function isStringifyForm(bytes: Uint8Array, start = 0, end = bytes.length, utf8 = false): boolean {
  if (!utf8 && !isUtf8(bytes.subarray(start, end))) return false;
  const answer = inScratch(bytes, start, end).jsonForm(SCRATCH_AT, SCRATCH_AT + end - start);
  return answer === UNSURE ? stringifiesTo(bytes, start, end) : answer === FORM;
}

/** The definition itself, for what the scan module leaves to JS: the text parsed and stringified is the text. */
export function stringifiesTo(bytes: Uint8Array, start: number, end: number): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("utf8");
  const value = tryParseJson(text);
  return value !== undefined && JSON.stringify(value) === text;
}
