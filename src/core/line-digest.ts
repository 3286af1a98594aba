import { inScratch, SCRATCH_AT } from "./scan-module.js";

/**
 * A 48-bit digest of a line's bytes, exact in a double: a 32-bit hash and the low 16 bits of its length. What
 * dedup keeps per key to tell a true duplicate from a copy with the same key and scorecard version but other
 * content (`conflicting_duplicate`). Two different lines of one key share it with odds of about 2^-32 (2^-48
 * when their lengths differ in the low 16 bits), and then count as a plain `duplicate`.
 *
 * The hash is written once, in the scan module (src/engines/parallel/wasm/digest.ts, which says why this
 * hash): a worker's batch is hashed where it lies in the module's memory (`lineDigestOf`), any other line in
 * the thread's scratch instance. One definition, so a line's digest is the same wherever it is taken.
 */
export function lineDigest(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return digestOf(inScratch(bytes, start, end).lineHash(SCRATCH_AT, SCRATCH_AT + end - start), end - start);
}

/** The digest of a line of `length` bytes whose hash the scan module's `lineHash` answered. */
export function digestOf(hash: number, length: number): number {
  // `>>> 0`: the module answers an i32.
  return (hash >>> 0) * 65536 + (length & 0xffff);
}
