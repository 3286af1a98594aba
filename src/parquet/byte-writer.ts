import { uleb128At } from "./uleb128-at.js";

/**
 * A growable byte buffer for the encoder's output and scratch space: little-endian numbers, ULEB128 varints
 * and raw bytes. Reused across row groups (`reset()`), so it only allocates when it grows.
 */
export class ByteWriter {
  bytes: Uint8Array;
  view: DataView;
  /** Bytes written so far. */
  length = 0;

  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(capacity);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Makes room for `n` more bytes, doubling the capacity as often as needed. */
  ensure(n: number): void {
    const needed = this.length + n;
    if (needed <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < needed) capacity *= 2;
    const bytes = new Uint8Array(capacity);
    bytes.set(this.bytes.subarray(0, this.length));
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer);
  }

  reset(): void {
    this.length = 0;
  }

  u8(value: number): void {
    this.ensure(1);
    this.bytes[this.length++] = value;
  }

  u32(value: number): void {
    this.ensure(4);
    this.view.setUint32(this.length, value, true);
    this.length += 4;
  }

  /** Writes `value` at `at` (an earlier position), e.g. a length known only after what follows it. */
  u32At(at: number, value: number): void {
    this.view.setUint32(at, value, true);
  }

  /** ULEB128 of a non-negative integer up to 2^53. */
  varint(value: number): void {
    this.ensure(8);
    this.length = uleb128At(this.bytes, this.length, value);
  }

  /** Copies `src[start, end)`. */
  append(src: Uint8Array, start = 0, end = src.length): void {
    const n = end - start;
    this.ensure(n);
    this.bytes.set(start === 0 && end === src.length ? src : src.subarray(start, end), this.length);
    this.length += n;
  }

  /** A copy of what was written, in an ArrayBuffer of exactly that size (a structured clone copies the whole ArrayBuffer). */
  toBytes(): Uint8Array<ArrayBuffer> {
    // allocUnsafeSlow: its own ArrayBuffer, not zero-filled first (slice() zeroes, then copies).
    const copy = Buffer.allocUnsafeSlow(this.length);
    copy.set(this.bytes.subarray(0, this.length));
    return new Uint8Array(copy.buffer as ArrayBuffer, 0, this.length);
  }
}
