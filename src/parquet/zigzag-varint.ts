import { uleb128At } from "./uleb128-at.js";

/**
 * Stores a non-negative integer (a Thrift i32 or i64 up to 2^53) as its compact-protocol zigzag varint, the
 * ULEB128 of 2v, at `b[at]`, with room made by the caller; returns where it ends. What ThriftWriter writes
 * for such a value, for a writer that stores a fixed struct's bytes directly (the footer's column chunks).
 */
export function zigzagVarintAt(b: Uint8Array, at: number, value: number): number {
  // 2 * value is exact up to 2^54.
  return uleb128At(b, at, value * 2);
}
