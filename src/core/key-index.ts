import { ChunkedColumn } from "./chunked-column.js";

/** Bytes of an arena chunk; a longer key gets a chunk of its own. */
const ARENA_CHUNK = 1 << 20;
/** A key's place in the arena: chunk × 2^32 + offset in the chunk (exact in a double). */
const TWO_32 = 4294967296;
const chunkOf = (at: number): number => Math.floor(at / TWO_32);
// An int32 (offsets stay below a chunk's size): docs/decisions.md "hot code shape", number kinds.
const offsetOf = (at: number): number => (at % TWO_32) | 0;

/**
 * Distinct byte strings numbered 0, 1, 2, … in the order they were added, held outside the JS heap: their
 * bytes back to back in an arena of chunks, and an open-addressing table of numbers. Exact: a probe compares
 * the whole key; the hash only picks the slot.
 *
 * Why not a `Map<string, number>`: the parallel engine's dedup remembers every distinct key for the whole
 * run, and strings kept that long made the main thread's heap grow with the input (docs/decisions.md
 * "hot code shape", young generation). Here a key costs its length plus ~28 bytes, and memory grows with
 * the keys, never in steps (see ChunkedColumn). A nightly pull's run ids are kept the same way, for the
 * same reason (core/id-index.ts).
 */
export class KeyIndex {
  /** Key bytes; a key never spans two chunks. */
  readonly #arena: Uint8Array[] = [];
  /** Bytes of the last arena chunk in use. */
  #used = 0;
  /** Where key n is in the arena (see TWO_32), and its length. */
  readonly #at = new ChunkedColumn();
  readonly #length = new ChunkedColumn();
  /** Number + 1 of the key in each slot; 0 is empty. Kept at most half full, so rehashed by doubling. */
  #table = new Int32Array(0);
  #size = 0;

  constructor() {
    // Assigned again, so the field is not taken for a constant: docs/decisions.md "hot code shape", changing fields.
    this.#table = new Int32Array(1 << 11);
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes held for the keys (arena, positions and table), for memory accounting. */
  get bytesHeld(): number {
    let total = this.#table.byteLength + this.#at.bytesHeld + this.#length.bytesHeld;
    for (const chunk of this.#arena) total += chunk.byteLength;
    return total;
  }

  /** The number of the key `bytes[start, end)`, or -1. */
  get(bytes: Uint8Array, start: number, end: number): number {
    return (this.#table[this.#probe(hashOf(bytes, start, end), bytes, start, end)] as number) - 1;
  }

  /** The number of the key `bytes[start, end)`, numbering it next when it is new (`size` then grows). */
  add(bytes: Uint8Array, start: number, end: number): number {
    const hash = hashOf(bytes, start, end);
    const slot = this.#probe(hash, bytes, start, end);
    const found = this.#table[slot] as number;
    if (found !== 0) return found - 1;
    const n = this.#size++;
    this.#store(n, bytes, start, end);
    if (2 * this.#size > this.#table.length) this.#rehash(this.#table.length * 2);
    else this.#table[slot] = n + 1;
    return n;
  }

  /** Key n's bytes, a view into the arena (chunks never move; the caller must not write to it). */
  key(n: number): Uint8Array {
    if (!(Number.isInteger(n) && n >= 0 && n < this.#size)) throw new RangeError(`Expected a key number from 0 to ${this.#size - 1}, got ${n}`);
    const at = this.#at.get(n);
    const from = offsetOf(at);
    return (this.#arena[chunkOf(at)] as Uint8Array).subarray(from, from + this.#length.get(n));
  }

  /** Copies key n's bytes into the arena, in a new chunk when the last one has no room. */
  #store(n: number, bytes: Uint8Array, start: number, end: number): void {
    const length = end - start;
    let chunk = this.#arena.length - 1;
    if (chunk < 0 || this.#used + length > (this.#arena[chunk] as Uint8Array).length) {
      this.#arena.push(new Uint8Array(Math.max(ARENA_CHUNK, length)));
      this.#used = 0;
      chunk++;
    }
    (this.#arena[chunk] as Uint8Array).set(bytes.subarray(start, end), this.#used);
    this.#at.set(n, chunk * TWO_32 + this.#used);
    this.#length.set(n, length);
    this.#used += length;
  }

  /** The slot holding the key `bytes[start, end)` (whose hash is `hash`), or the empty slot where it would go. */
  #probe(hash: number, bytes: Uint8Array, start: number, end: number): number {
    const mask = this.#table.length - 1;
    let slot = hash & mask;
    for (let entry = this.#table[slot] as number; entry !== 0 && !this.#equals(entry - 1, bytes, start, end); entry = this.#table[slot] as number) slot = (slot + 1) & mask;
    return slot;
  }

  #equals(n: number, bytes: Uint8Array, start: number, end: number): boolean {
    if (this.#length.get(n) !== end - start) return false;
    const at = this.#at.get(n);
    const chunk = this.#arena[chunkOf(at)] as Uint8Array;
    const from = offsetOf(at);
    for (let i = 0; i < end - start; i++) if (chunk[from + i] !== bytes[start + i]) return false;
    return true;
  }

  #place(n: number, hash: number): void {
    const mask = this.#table.length - 1;
    let slot = hash & mask;
    while (this.#table[slot] !== 0) slot = (slot + 1) & mask;
    this.#table[slot] = n + 1;
  }

  #rehash(slots: number): void {
    this.#table = new Int32Array(slots);
    for (let n = 0; n < this.#size; n++) {
      const at = this.#at.get(n);
      const from = offsetOf(at);
      this.#place(n, hashOf(this.#arena[chunkOf(at)] as Uint8Array, from, (from + this.#length.get(n)) | 0));
    }
  }
}

/** FNV-1a, then a final mix so the low bits (the slot) depend on every byte. */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}
