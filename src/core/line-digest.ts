/**
 * A 53-bit digest of a line's bytes (cyrb53: two 32-bit multiply-xor lanes), exact in a double: what dedup
 * keeps per key to tell a true duplicate from a copy with the same key and scorecard version but other content
 * (`conflicting_duplicate`). Not cryptographic: two different lines of one key share a digest with odds of
 * about 2^-53, and then count as a plain `duplicate`. One definition for both engines, so they agree.
 */
export function lineDigest(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = start; i < end; i++) {
    const c = bytes[i] as number;
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
