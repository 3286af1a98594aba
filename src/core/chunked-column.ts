const SHIFT = 13;
/** Entries per chunk: 64 KiB, small next to a run's columns and large enough to be few. */
const SIZE = 1 << SHIFT;
const MASK = SIZE - 1;

/**
 * A column of doubles indexed from 0 (below 2^32) that grows a chunk at a time, for what the parallel
 * engine's main thread ("main") keeps per distinct key for the whole run (KeyIndex). Entries never set read
 * 0, as in a fresh typed array. Doubles only: docs/decisions.md "hot code shape", number kinds.
 *
 * Why not one typed array grown by a factor: the allocator zero-fills the new array up front, and the old one
 * is garbage until main's rare full GC, so peak memory jumped at each step. Chunks are never copied, and only
 * the last one is partly empty.
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

/** Runs `set`'s growth path at load, not first in the dedup's hot code (docs/decisions.md "hot code shape", cold paths). */
function primeGrowth(): void {
  const column = new ChunkedColumn();
  for (let i = 0; i < 16; i++) column.set(i, i);
  column.set(SIZE, 1);
}
primeGrowth();
