/**
 * Positions in a list of `size` items, handed out in the order they became ready, each once: what a stage
 * may start as the stage before it finishes item by item (issue 40: a run's scorecard as soon as its records
 * are in, not after the last run's). Typed, so a 100,000-run night queues no object per run (issue 21).
 */
export class ReadyQueue {
  readonly #ready: Int32Array;
  #head = 0;
  #tail = 0;
  #ended: { readonly error?: unknown } | undefined;
  readonly #waiting: { resolve: (index: number | undefined) => void; reject: (error: unknown) => void }[] = [];

  constructor(size: number) {
    this.#ready = new Int32Array(size);
  }

  /** Item `index` is ready; each index at most once. */
  push(index: number): void {
    const waiter = this.#waiting.shift();
    if (waiter !== undefined) waiter.resolve(index);
    else this.#ready[this.#tail++] = index;
  }

  /** No more items will be ready. */
  end(): void {
    this.#finish({});
  }

  /** The stage before failed: `next` throws `error` once the positions already ready are handed out. */
  fail(error: unknown): void {
    this.#finish({ error });
  }

  /** The next ready position, waiting for one; undefined once the queue has ended and is drained. */
  readonly next = (): Promise<number | undefined> => {
    if (this.#head < this.#tail) return Promise.resolve(this.#ready[this.#head++] as number);
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      if (this.#ended === undefined) this.#waiting.push(waiter);
      else this.#settle(waiter);
    });
  };

  #finish(ended: { readonly error?: unknown }): void {
    this.#ended = ended;
    for (const waiter of this.#waiting.splice(0)) this.#settle(waiter);
  }

  #settle(waiter: { resolve: (index: number | undefined) => void; reject: (error: unknown) => void }): void {
    if (this.#ended !== undefined && "error" in this.#ended) waiter.reject(this.#ended.error);
    else waiter.resolve(undefined);
  }
}
