import { isStringifyForm } from "../../../views/is-stringify-form.js";
import { WASM_SCAN } from "./wasm-scan.js";

const UNSURE = 2;

/**
 * {@link isStringifyForm} of a JSON value's valid UTF-8 bytes `[start, end)` (a walk's, whose line was
 * checked): by this thread's wasm module when they lie in its memory (src/engines/parallel/wasm/json-form.ts,
 * the same rules, a literal's plain run 16 bytes at a time), else, or when the module leaves it to JS (a
 * number other than a short integer), in JS.
 */
export function jsonFormOf(bytes: Uint8Array, start: number, end: number): boolean {
  if (bytes.buffer === WASM_SCAN.buffer) {
    // The module's 16-byte steps stay before `end`, so the value's own bytes are all it reads.
    const answer = WASM_SCAN.exports.jsonForm(bytes.byteOffset + start, bytes.byteOffset + end);
    if (answer !== UNSURE) return answer === 1;
  }
  return isStringifyForm(bytes, start, end, true);
}
