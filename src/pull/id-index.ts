/** First capacities; each grows by doubling. */
const FIRST_IDS = 1024;
const FIRST_BYTES = 64 * 1024;
/** Bytes per id the lookup buffer holds before it grows (UTF-16 needs two a character). */
const SCRATCH_BYTES = 1024;

/**
 * Opaque identifiers (run ids) numbered 0, 1, 2, ... in the order first added, kept off the JS heap: their
 * bytes in one growing Buffer, their ends and hashes in typed arrays, and an open-addressing table of
 * indexes. A pull keeps its per-run state in typed arrays indexed by these numbers instead of Maps keyed by
 * strings, so what it holds per run is a few bytes outside the heap, not strings, Map entries and objects
 * V8 lets grow 4x before collecting (docs/decisions.md, "Nightly pull memory: per-run state off the heap").
 * Ids are compared as they are, never parsed: an all-ASCII id is stored as its bytes, any other as UTF-16
 * code units (lossless for every JS string, lone surrogates included).
 */
export class IdIndex {
  #bytes: Buffer = Buffer.allocUnsafe(FIRST_BYTES);
  #used = 0;
  /** End of id i's bytes; `wide[i]` is 1 when they are UTF-16. */
  #ends = new Float64Array(FIRST_IDS);
  #hashes = new Uint32Array(FIRST_IDS);
  #wide = new Uint8Array(FIRST_IDS);
  /** Open addressing: index + 1 of the id in that slot, 0 for none. */
  #slots = new Int32Array(FIRST_IDS * 2);
  #scratch: Buffer = Buffer.allocUnsafe(SCRATCH_BYTES);
  /** Set by `encode`: the query's byte length and whether it is UTF-16. */
  #queryBytes = 0;
  #queryWide = 0;
  size = 0;

  /** The number of `id`: its existing one, or the next. */
  add(id: string): number {
    const hash = this.#encode(id);
    const found = this.#find(hash);
    if (found >= 0) return found;
    const index = this.size;
    if (index === this.#ends.length) this.#growIds();
    if (this.#used + this.#queryBytes > this.#bytes.length) this.#growBytes(this.#used + this.#queryBytes);
    this.#scratch.copy(this.#bytes, this.#used, 0, this.#queryBytes);
    this.#used += this.#queryBytes;
    this.#ends[index] = this.#used;
    this.#hashes[index] = hash;
    this.#wide[index] = this.#queryWide;
    this.size++;
    if (this.size * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    else this.#place(index, hash);
    return index;
  }

  /** The number of `id`, or -1 when it was never added. */
  indexOf(id: string): number {
    return this.#find(this.#encode(id));
  }

  /** Id number `index` as a string (a new one each call). */
  id(index: number): string {
    const start = index === 0 ? 0 : (this.#ends[index - 1] as number);
    return this.#bytes.toString(this.#wide[index] === 1 ? "utf16le" : "latin1", start, this.#ends[index] as number);
  }

  /** Puts `id` in `scratch` and gives its hash (FNV-1a over the stored bytes). */
  #encode(id: string): number {
    const ascii = Buffer.byteLength(id, "utf8") === id.length;
    const need = ascii ? id.length : id.length * 2;
    if (need > this.#scratch.length) this.#scratch = Buffer.allocUnsafe(need * 2);
    this.#queryBytes = this.#scratch.write(id, 0, ascii ? "latin1" : "utf16le");
    this.#queryWide = ascii ? 0 : 1;
    let hash = 0x811c9dc5 ^ this.#queryWide;
    const s = this.#scratch;
    for (let i = 0; i < this.#queryBytes; i++) hash = Math.imul(hash ^ (s[i] as number), 0x01000193);
    return hash >>> 0;
  }

  /** The index of the encoded query, or -1. */
  #find(hash: number): number {
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot] as number;
      if (entry === 0) return -1;
      const index = entry - 1;
      if (this.#hashes[index] !== hash || this.#wide[index] !== this.#queryWide) continue;
      const start = index === 0 ? 0 : (this.#ends[index - 1] as number);
      const end = this.#ends[index] as number;
      if (end - start === this.#queryBytes && this.#bytes.compare(this.#scratch, 0, this.#queryBytes, start, end) === 0) return index;
    }
  }

  #place(index: number, hash: number): void {
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = index + 1;
  }

  #rehash(slots: number): void {
    this.#slots = new Int32Array(slots);
    for (let i = 0; i < this.size; i++) this.#place(i, this.#hashes[i] as number);
  }

  #growIds(): void {
    const n = this.#ends.length * 2;
    const ends = new Float64Array(n);
    ends.set(this.#ends);
    this.#ends = ends;
    const hashes = new Uint32Array(n);
    hashes.set(this.#hashes);
    this.#hashes = hashes;
    const wide = new Uint8Array(n);
    wide.set(this.#wide);
    this.#wide = wide;
  }

  #growBytes(atLeast: number): void {
    const bytes = Buffer.allocUnsafe(Math.max(atLeast, this.#bytes.length * 2));
    this.#bytes.copy(bytes, 0, 0, this.#used);
    this.#bytes = bytes;
  }
}
