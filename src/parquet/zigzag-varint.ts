/**
 * Stores a non-negative integer (a Thrift i32 or i64 up to 2^53) as its compact-protocol zigzag varint, the
 * ULEB128 of 2v, at `b[at]`, with room made by the caller; returns where it ends. What ThriftWriter writes
 * for such a value, for a writer that stores a fixed struct's bytes directly (the footer's column chunks).
 */
export function zigzagVarintAt(b: Uint8Array, at: number, value: number): number {
  // 2 * value is exact up to 2^54, where bit operators would stop at 32 bits.
  let n = value * 2;
  while (n >= 0x80) {
    // `&` takes the value modulo 2^32, so the low 7 bits are right even above 2^32.
    b[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  b[at++] = n;
  return at;
}
