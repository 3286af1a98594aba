import { grown } from "../../../core/grown.js";

/**
 * Strings as UTF-8, back to back, with where each ends: what a worker sends main for its records' dedup
 * keys. One typed array per batch, not a string per record that survives until its unit is decided
 * (docs/decisions.md "hot code shape", young generation).
 */
export interface PackedKeys {
  readonly bytes: Uint8Array;
  /** End of key i in `bytes`; key i starts where key i - 1 ends (key 0 at 0). */
  readonly ends: Uint32Array;
}

/** Where key `i` starts in `keys.bytes`. */
export function keyStart(keys: PackedKeys, i: number): number {
  return i === 0 ? 0 : (keys.ends[i - 1] as number);
}

const encoder = new TextEncoder();

/** Packs keys one at a time. Keys must be well-formed UTF-16 (as `JSON.stringify` makes them): equal bytes, equal keys. */
export class PackedKeysWriter {
  #bytes = new Uint8Array(1 << 14);
  #ends = new Uint32Array(256);
  #length = 0;
  #count = 0;

  add(key: string): void {
    // encodeInto writes at most 3 bytes per UTF-16 unit.
    if (this.#length + 3 * key.length > this.#bytes.length) this.#bytes = grown(this.#bytes, this.#length + 3 * key.length);
    this.#length += encoder.encodeInto(key, this.#bytes.subarray(this.#length)).written;
    if (this.#count === this.#ends.length) this.#ends = grown(this.#ends, this.#count + 1);
    this.#ends[this.#count++] = this.#length;
  }

  /** The keys so far, in arrays of their own; the writer then starts over, keeping its memory. */
  done(): PackedKeys {
    const keys = { bytes: this.#bytes.slice(0, this.#length), ends: this.#ends.slice(0, this.#count) };
    this.#length = 0;
    this.#count = 0;
    return keys;
  }
}
