/**
 * Batch memory that travels main -> worker -> main and is filled again. Fresh memory costs a page fault
 * per 4 KiB on first touch (half a second of system time over a 200 MiB input); reused memory does not.
 */
const MIB = 1 << 20;
const MAX_POOLED_BYTES = 64 * MIB;

export class BufferPool {
  readonly #free: ArrayBuffer[] = [];
  #pooled = 0;

  /** A buffer of at least `bytes` bytes, in an ArrayBuffer of its own; not zeroed. */
  take(bytes: number): Uint8Array {
    const i = this.#free.findIndex((b) => b.byteLength >= bytes);
    // Whole MiBs, so a request a few bytes over the last one still finds a buffer given back.
    if (i === -1) return Buffer.allocUnsafeSlow(Math.ceil(bytes / MIB) * MIB);
    const [buffer] = this.#free.splice(i, 1) as [ArrayBuffer];
    this.#pooled -= buffer.byteLength;
    return new Uint8Array(buffer);
  }

  /**
   * Returns buffers for reuse, up to {@link MAX_POOLED_BYTES}: what is in flight is bounded elsewhere, so
   * the pool only needs to cover it, and one huge line must not pin its memory for the rest of the run.
   */
  give(buffers: readonly ArrayBuffer[]): void {
    for (const b of buffers) {
      if (this.#pooled + b.byteLength > MAX_POOLED_BYTES) continue;
      this.#free.push(b);
      this.#pooled += b.byteLength;
    }
  }
}
