/**
 * Memory shared with the workers: a fixed set of SharedArrayBuffer slots, handed out and back by number.
 * Batches: filled by main, copied out by a worker, free again once it answers with their outcomes. A batch's outcome
 * columns and encoded units: filled by a worker and read by main until decided or written. Allocated
 * once, so no thread's garbage collection works in proportion to the input (docs/decisions.md "hot code
 * shape", young generation). What does not fit a slot gets ordinary memory, copied across (see protocol.ts).
 */
export class SharedSlots {
  readonly buffers: readonly SharedArrayBuffer[];
  readonly #views: readonly Uint8Array[];
  readonly #free: number[];

  constructor(count: number, readonly slotBytes: number) {
    this.buffers = Array.from({ length: count }, () => new SharedArrayBuffer(slotBytes));
    this.#views = this.buffers.map((b) => new Uint8Array(b));
    this.#free = this.buffers.map((_, i) => count - 1 - i);
  }

  /** Memory for `bytes` bytes: a free slot when one fits, else a fresh ArrayBuffer of its own. */
  take(bytes: number): Uint8Array {
    const slot = bytes <= this.slotBytes ? this.takeSlot() : -1;
    return slot === -1 ? Buffer.allocUnsafeSlow(bytes) : this.view(slot);
  }

  /** A free slot's number, or -1 when none is free. */
  takeSlot(): number {
    return this.#free.pop() ?? -1;
  }

  view(slot: number): Uint8Array {
    const view = this.#views[slot];
    if (view === undefined) throw new Error(`Internal error: no shared slot ${slot}`);
    return view;
  }

  /** The slot a view lies in, or -1 for memory of its own. */
  slotOf(view: Uint8Array): number {
    return this.buffers.indexOf(view.buffer as SharedArrayBuffer);
  }

  /** Gives memory back: a slot is free again; other memory is left to the garbage collector. */
  release(view: Uint8Array): void {
    const slot = this.slotOf(view);
    if (slot !== -1) this.free(slot);
  }

  free(slot: number): void {
    if (!this.#free.includes(slot)) this.#free.push(slot);
  }
}
