/**
 * Distinct strings numbered 0, 1, 2, … in the order they were added, held outside the JS heap: their
 * characters back to back in one byte arena (a key with a character past U+00FF goes to a Map instead:
 * run ids and seat numbers never have one), and an open-addressing table of numbers. Exact: a probe
 * compares the whole key; the hash only picks the slot.
 *
 * Why not a `Map<string, number>`: dedup remembers every distinct key for the whole run, and each key
 * string survived the young-generation GCs that met it. V8 grows the young generation once enough bytes
 * have survived, so main's heap grew with the input (SFT 1 GiB: +17 MB over 200 MiB). Here a key costs
 * its length plus ~16 bytes.
 */
export class KeyIndex {
  #chars = new Uint8Array(1 << 16);
  /** Where key n starts in `#chars`; key n ends where key n + 1 starts (the last, at `#used`). */
  #start = new Float64Array(1 << 10);
  #used = 0;
  /** Number + 1 of the key in each slot; 0 is empty. Kept at most half full. */
  #table = new Int32Array(1 << 11);
  #size = 0;
  readonly #wide = new Map<string, number>();
  readonly #wideNumbers = new Set<number>();

  get size(): number {
    return this.#size;
  }

  /** The key's number, or -1. */
  get(key: string): number {
    const wide = this.#wide.size === 0 ? undefined : this.#wide.get(key);
    if (wide !== undefined) return wide;
    const mask = this.#table.length - 1;
    for (let slot = hashOf(key) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#table[slot] as number;
      if (entry === 0) return -1;
      if (this.#equals(entry - 1, key)) return entry - 1;
    }
  }

  /** The key's number, numbering it next when it is new. */
  add(key: string): number {
    const found = this.get(key);
    if (found !== -1) return found;
    const n = this.#size;
    if (this.#used + key.length > this.#chars.length) this.#chars = grown(this.#chars, this.#used + key.length);
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c > 0xff) {
        this.#wide.set(key, n);
        this.#wideNumbers.add(n);
        this.#append(n);
        return n;
      }
      this.#chars[this.#used + i] = c;
    }
    this.#used += key.length;
    this.#append(n);
    if (2 * this.#size > this.#table.length) this.#rehash(this.#table.length * 2);
    else this.#place(n, hashOf(key));
    return n;
  }

  /** Numbers key n, which ends at `#used` (a wide key takes no characters). */
  #append(n: number): void {
    this.#size++;
    if (this.#size >= this.#start.length) this.#start = grown(this.#start, this.#size + 1);
    this.#start[this.#size] = this.#used;
  }

  #equals(n: number, key: string): boolean {
    const start = this.#start[n] as number;
    if ((this.#start[n + 1] as number) - start !== key.length) return false;
    for (let i = 0; i < key.length; i++) if (this.#chars[start + i] !== key.charCodeAt(i)) return false;
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
      const start = this.#start[n] as number;
      const end = this.#start[n + 1] as number;
      // A wide key's characters are in the Map, not the arena: it has no slot.
      if (!this.#wideNumbers.has(n)) this.#place(n, hashOfChars(this.#chars, start, end));
    }
  }
}

function grown<T extends Float64Array | Uint8Array>(from: T, need: number): T {
  let size = from.length * 2;
  while (size < need) size *= 2;
  const to = (from instanceof Float64Array ? new Float64Array(size) : new Uint8Array(size)) as T;
  to.set(from);
  return to;
}

// FNV-1a over the characters, then a final mix so the low bits (the slot) depend on every character. The
// two functions hash a key and its arena copy alike.
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return mix(h);
}

function hashOfChars(chars: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (chars[i] as number), 0x01000193);
  return mix(h);
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}
