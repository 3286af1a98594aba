/**
 * A 48-bit digest of a line's bytes, exact in a double: a 32-bit hash and the low 16 bits of its length. What
 * dedup keeps per key to tell a true duplicate from a copy with the same key and scorecard version but other
 * content (`conflicting_duplicate`). Two different lines of one key share it with odds of about 2^-32 (2^-48
 * when their lengths differ in the low 16 bits), and then count as a plain `duplicate`.
 *
 * The hash is xxHash32's round over eight 32-bit lanes (32 bytes a step), then its tail and avalanche steps:
 * eight lanes so that the parallel engine's wasm module (src/engines/parallel/wasm/digest.ts, the same
 * function, which test/core/line-digest.test.ts holds to this one) takes a step in two independent vector
 * chains, about twice the speed of zlib's CRC-32 it replaced (docs/decisions.md). One definition for both
 * engines, so they agree.
 */
export function lineDigest(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return lineHash(bytes, start, end) * 65536 + ((end - start) & 0xffff);
}

const P1 = 0x9e3779b1 | 0;
const P2 = 0x85ebca77 | 0;
const P3 = 0xc2b2ae3d | 0;
const P4 = 0x27d4eb2f | 0;
const P5 = 0x165667b1 | 0;
function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function word(bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16) | ((bytes[at + 3] as number) << 24);
}

/** The 32-bit hash of bytes `[start, end)`. */
export function lineHash(bytes: Uint8Array, start: number, end: number): number {
  // Lane k starts at P1 + k * P2.
  let l0 = P1, l1 = (P1 + P2) | 0, l2 = (P1 + 2 * P2) | 0, l3 = (P1 + 3 * P2) | 0;
  let l4 = (P1 + 4 * P2) | 0, l5 = (P1 + 5 * P2) | 0, l6 = (P1 + 6 * P2) | 0, l7 = (P1 + 7 * P2) | 0;
  let at = start;
  for (; at + 32 <= end; at += 32) {
    l0 = Math.imul(rotl((l0 + Math.imul(word(bytes, at), P2)) | 0, 13), P1);
    l1 = Math.imul(rotl((l1 + Math.imul(word(bytes, at + 4), P2)) | 0, 13), P1);
    l2 = Math.imul(rotl((l2 + Math.imul(word(bytes, at + 8), P2)) | 0, 13), P1);
    l3 = Math.imul(rotl((l3 + Math.imul(word(bytes, at + 12), P2)) | 0, 13), P1);
    l4 = Math.imul(rotl((l4 + Math.imul(word(bytes, at + 16), P2)) | 0, 13), P1);
    l5 = Math.imul(rotl((l5 + Math.imul(word(bytes, at + 20), P2)) | 0, 13), P1);
    l6 = Math.imul(rotl((l6 + Math.imul(word(bytes, at + 24), P2)) | 0, 13), P1);
    l7 = Math.imul(rotl((l7 + Math.imul(word(bytes, at + 28), P2)) | 0, 13), P1);
  }
  let h = (rotl(l0, 1) + rotl(l1, 7) + rotl(l2, 12) + rotl(l3, 18) + rotl(l4, 3) + rotl(l5, 9) + rotl(l6, 14) + rotl(l7, 20)) | 0;
  h = (h + (end - start)) | 0;
  for (; at + 4 <= end; at += 4) h = Math.imul(rotl((h + Math.imul(word(bytes, at), P3)) | 0, 17), P4);
  for (; at < end; at++) h = Math.imul(rotl((h + Math.imul(bytes[at] as number, P5)) | 0, 11), P1);
  h ^= h >>> 15;
  h = Math.imul(h, P2);
  h ^= h >>> 13;
  h = Math.imul(h, P3);
  h ^= h >>> 16;
  return h >>> 0;
}
