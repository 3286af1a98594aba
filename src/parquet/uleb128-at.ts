/**
 * Stores a non-negative integer up to 2^53 as its ULEB128 at `b[at]`, with room made by the caller; returns
 * where it ends. Bit operators would cut the value to 32 bits, so it divides.
 */
export function uleb128At(b: Uint8Array, at: number, value: number): number {
  let n = value;
  while (n >= 0x80) {
    // `&` takes the value modulo 2^32, so the low 7 bits are right even above 2^32.
    b[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  b[at++] = n;
  return at;
}
