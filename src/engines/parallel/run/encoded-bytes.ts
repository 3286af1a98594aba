/**
 * A unit's encoded row groups laid back to back: in its shared output slot while they fit, else in memory
 * of its own (copied to main with the reply). Most units fit: a slot holds a whole unit's input.
 */
export class EncodedBytes {
  #parts: Uint8Array[] = [];
  #length = 0;

  constructor(private readonly slot: Uint8Array | null) {}

  add(bytes: Uint8Array): void {
    const { slot } = this;
    if (this.#parts.length === 0 && slot !== null && this.#length + bytes.length <= slot.length) {
      slot.set(bytes, this.#length);
    } else {
      if (this.#parts.length === 0 && this.#length > 0 && slot !== null) this.#parts.push(slot.slice(0, this.#length));
      this.#parts.push(bytes.slice());
    }
    this.#length += bytes.length;
  }

  /** The bytes when they did not all fit the slot (or there was none); null when the slot holds them. */
  copied(): Uint8Array | null {
    if (this.#parts.length === 0) return this.slot === null ? new Uint8Array(0) : null;
    if (this.#parts.length === 1) return this.#parts[0] as Uint8Array;
    const all = new Uint8Array(this.#length);
    let at = 0;
    for (const part of this.#parts) {
      all.set(part, at);
      at += part.length;
    }
    return all;
  }
}
