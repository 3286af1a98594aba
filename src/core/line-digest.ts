import { scanModule, WASM } from "./scan-module.js";

/**
 * A 48-bit digest of a line's bytes, exact in a double: a 32-bit hash and the low 16 bits of its length. What
 * dedup keeps per key to tell a true duplicate from a copy with the same key and scorecard version but other
 * content (`conflicting_duplicate`). Two different lines of one key share it with odds of about 2^-32 (2^-48
 * when their lengths differ in the low 16 bits), and then count as a plain `duplicate`.
 *
 * The hash is written once, in the scan module (src/engines/parallel/wasm/digest.ts, which says why this
 * hash): a worker's batch is hashed where it lies in the module's memory (`lineDigestOf`), any other line is
 * copied into a small instance of its own here. One definition for both engines, so they agree.
 */
export function lineDigest(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const length = end - start;
  const area = digestArea(length);
  area.bytes.set(bytes.subarray(start, end), BASE);
  return digestOf(area.lineHash(BASE, BASE + length), length);
}

/** The digest of a line of `length` bytes whose hash the scan module's `lineHash` answered. */
export function digestOf(hash: number, length: number): number {
  // `>>> 0`: the module answers an i32.
  return (hash >>> 0) * 65536 + (length & 0xffff);
}

/** Where a line goes in the digest's instance: above the module's own static data. */
const BASE = 1 << 16;
const PAGE = 1 << 16;

interface DigestArea {
  readonly bytes: Uint8Array;
  readonly lineHash: (p: number, end: number) => number;
}
let area: DigestArea | undefined;

/** This thread's digest instance, remade with twice the room when a line does not fit. */
function digestArea(length: number): DigestArea {
  if (area !== undefined && BASE + length <= area.bytes.length) return area;
  const pages = Math.max(2 * Math.ceil((BASE + length) / PAGE), 4);
  const memory = new WASM.Memory({ initial: pages, maximum: pages });
  const exports = new WASM.Instance(scanModule(), { env: { memory } }).exports as { lineHash(p: number, end: number): number };
  area = { bytes: new Uint8Array(memory.buffer), lineHash: exports.lineHash };
  return area;
}
