import { crc32 } from "node:zlib";

/**
 * A 48-bit digest of a line's bytes, exact in a double: its CRC-32 and the low 16 bits of its length. What dedup
 * keeps per key to tell a true duplicate from a copy with the same key and scorecard version but other content
 * (`conflicting_duplicate`). Two different lines of one key share it with odds of about 2^-32 (2^-48 when their
 * lengths differ in the low 16 bits), and then count as a plain `duplicate`. CRC-32 because zlib's is native and
 * vectorised: it runs over every valid line of a convert, and SHA-256 cost twice its time (docs/decisions.md).
 * One definition for both engines, so they agree.
 */
export function lineDigest(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return crc32(bytes.subarray(start, end)) * 65536 + ((end - start) & 0xffff);
}
