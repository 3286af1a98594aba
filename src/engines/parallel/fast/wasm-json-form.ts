import { isStringifyForm, stringifiesTo } from "../../../views/is-stringify-form.js";
import { WASM_SCAN } from "./wasm-scan.js";

const UNSURE = 2;

/**
 * {@link isStringifyForm} of a JSON value's valid UTF-8 bytes `[start, end)` (a walk's, whose line was
 * checked), asked where they lie when they are in this thread's scan module, else copied by `isStringifyForm`.
 */
export function jsonFormOf(bytes: Uint8Array, start: number, end: number): boolean {
  if (bytes.buffer !== WASM_SCAN.buffer) return isStringifyForm(bytes, start, end, true);
  // The module's 16-byte steps stay before `end`, so the value's own bytes are all it reads.
  const answer = WASM_SCAN.exports.jsonForm(bytes.byteOffset + start, bytes.byteOffset + end);
  return answer === UNSURE ? stringifiesTo(bytes, start, end) : answer === 1;
}
