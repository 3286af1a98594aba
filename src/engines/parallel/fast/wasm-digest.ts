import { lineDigest } from "../../../core/line-digest.js";
import { WASM_SCAN } from "./wasm-scan.js";

/**
 * {@link lineDigest} of bytes `[start, end)`, by this thread's wasm scan module when they lie in its memory (a
 * worker's batch: src/engines/parallel/wasm/digest.ts, the same hash in vectors), else in JS.
 */
export function lineDigestOf(bytes: Uint8Array, start: number, end: number): number {
  if (bytes.buffer !== WASM_SCAN.buffer) return lineDigest(bytes, start, end);
  // `>>> 0`: the module answers an i32.
  return (WASM_SCAN.exports.lineHash(bytes.byteOffset + start, bytes.byteOffset + end) >>> 0) * 65536 + ((end - start) & 0xffff);
}
