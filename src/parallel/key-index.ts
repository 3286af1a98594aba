import { grown, LONG_LIVED_GROWTH } from "./grown.js";

/**
 * Distinct byte strings numbered 0, 1, 2, … in the order they were added, held outside the JS heap: their
 * bytes back to back in one arena, and an open-addressing table of numbers. Exact: a probe compares the
 * whole key; the hash only picks the slot.
 *
 * Why not a `Map<string, number>`: dedup remembers every distinct key for the whole run, and each key
 * string survived the young-generation GCs that met it. V8 grows the young generation once enough bytes
 * have survived, so main's heap grew with the input (SFT 1 GiB: +17 MB over 200 MiB). Here a key costs its
 * length plus ~16 bytes.
 */
export class KeyIndex {
  #arena = new Uint8Array(0);
  /** Where key n starts in `#arena`; key n ends where key n + 1 starts. */
  #start = new Float64Array(0);
  /** Number + 1 of the key in each slot; 0 is empty. Kept at most half full. */
  #table = new Int32Array(0);
  #size = 0;

  constructor() {
    // Each array is replaced as it grows. Assigned a second time here, so V8 does not take these fields for
    // constants: the first growth of each then deoptimised every function that read it (main recompiled the
    // index's code three times per run).
    this.#arena = new Uint8Array(1 << 16);
    this.#start = new Float64Array(1 << 10);
    this.#table = new Int32Array(1 << 11);
  }

  get size(): number {
    return this.#size;
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
    const at = this.#start[n] as number;
    if (at + (end - start) > this.#arena.length) this.#arena = grown(this.#arena, at + (end - start), LONG_LIVED_GROWTH);
    this.#arena.set(bytes.subarray(start, end), at);
    if (this.#size + 1 > this.#start.length) this.#start = grown(this.#start, this.#size + 1, LONG_LIVED_GROWTH);
    this.#start[this.#size] = at + (end - start);
    if (2 * this.#size > this.#table.length) this.#rehash(this.#table.length * 2);
    else this.#table[slot] = n + 1;
    return n;
  }

  /** The slot holding the key `bytes[start, end)` (whose hash is `hash`), or the empty slot where it would go. */
  #probe(hash: number, bytes: Uint8Array, start: number, end: number): number {
    const mask = this.#table.length - 1;
    let slot = hash & mask;
    for (let entry = this.#table[slot] as number; entry !== 0 && !this.#equals(entry - 1, bytes, start, end); entry = this.#table[slot] as number) slot = (slot + 1) & mask;
    return slot;
  }

  #equals(n: number, bytes: Uint8Array, start: number, end: number): boolean {
    const from = this.#start[n] as number;
    if ((this.#start[n + 1] as number) - from !== end - start) return false;
    for (let i = 0; i < end - start; i++) if (this.#arena[from + i] !== bytes[start + i]) return false;
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
    for (let n = 0; n < this.#size; n++) this.#place(n, hashOf(this.#arena, this.#start[n] as number, this.#start[n + 1] as number));
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
