const SHIFT = 13;
/** Entries per chunk: 64 KiB, small next to a run's columns and large enough to be few. */
const SIZE = 1 << SHIFT;
const MASK = SIZE - 1;

/**
 * A column of doubles indexed from 0 (below 2^32) that grows a chunk at a time, for what main keeps per
 * distinct key for the whole run. Entries never set read 0, as in a fresh typed array. Doubles only: one
 * element kind keeps the accesses monomorphic. Deciding 100,000 records, the first pass (compiling included)
 * took 82 ms, against 119 ms with Int32 and Uint8 columns too and 75 ms with plain typed arrays.
 *
 * Why not one typed array grown by a factor: the allocator zero-fills the new array up front, and the old one
 * is garbage until main's rare full GC. The dedup columns went from 65,536 to 524,288 entries at once in
 * SFT 1 GiB, +13 MB of peak RSS within 50 ms, in a run whose 200 MiB twin never reached that step. Chunks are
 * never copied, and only the last one is partly empty.
 */
export class ChunkedColumn {
  readonly #chunks: Float64Array[] = [];

  get(i: number): number {
    const chunk = this.#chunks[i >>> SHIFT];
    return chunk === undefined ? 0 : (chunk[i & MASK] as number);
  }

  set(i: number, value: number): void {
    const c = i >>> SHIFT;
    while (this.#chunks.length <= c) this.#chunks.push(new Float64Array(SIZE));
    (this.#chunks[c] as Float64Array)[i & MASK] = value;
  }

  /** A column holding the same entries. */
  copy(): ChunkedColumn {
    const to = new ChunkedColumn();
    for (const chunk of this.#chunks) to.#chunks.push(chunk.slice());
    return to;
  }

  /** Bytes of the chunks allocated so far. */
  get bytesHeld(): number {
    let total = 0;
    for (const chunk of this.#chunks) total += chunk.byteLength;
    return total;
  }
}

/**
 * Runs `set`'s growth path once `set` has type feedback: a column's first chunk comes with its first `set`,
 * before V8 records feedback for the function (after a few calls), and the next chunk's growth, first
 * reached in main's optimised dedup code, deoptimised it (`set`, `add`, `#learn`; SFT 200 MiB).
 */
function primeGrowth(): void {
  const column = new ChunkedColumn();
  for (let i = 0; i < 16; i++) column.set(i, i);
  column.set(SIZE, 1);
}
primeGrowth();
