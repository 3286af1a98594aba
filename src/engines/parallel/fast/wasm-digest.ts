import { digestOf, lineDigest } from "../../../core/line-digest.js";
import { WASM_SCAN } from "./wasm-scan.js";

/**
 * {@link lineDigest} of bytes `[start, end)`, hashed where they lie when they are in this thread's scan module
 * (a worker's batch), else copied by `lineDigest`.
 */
export function lineDigestOf(bytes: Uint8Array, start: number, end: number): number {
  if (bytes.buffer !== WASM_SCAN.buffer) return lineDigest(bytes, start, end);
  return digestOf(WASM_SCAN.exports.lineHash(bytes.byteOffset + start, bytes.byteOffset + end), end - start);
}
