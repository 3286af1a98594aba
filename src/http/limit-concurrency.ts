import { wholeOption } from "../core/whole-option.js";
import { releaseOnce } from "./release-once.js";

/** A counting semaphore in the style of p-limit, with slots that can outlive a single promise. */
export interface ConcurrencyLimit {
  /**
   * Waits for a free slot, first come first served. The returned function frees it; calling it again
   * does nothing, so `finally` blocks may call it unconditionally.
   */
  acquire(): Promise<() => void>;
  /** Runs `fn` in a slot. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Slots taken now. */
  readonly activeCount: number;
  /** Callers waiting for a slot. */
  readonly pendingCount: number;
}

/**
 * At most `concurrency` slots taken at once. A slot is an explicit handle rather than a wrapped
 * function because a streamed body keeps its request in flight after the call that opened it returns.
 */
export function limitConcurrency(concurrency: number): ConcurrencyLimit {
  wholeOption("concurrency", concurrency, 1);
  let active = 0;
  const waiting: (() => void)[] = [];

  const slot = (): (() => void) =>
    releaseOnce(() => {
      const next = waiting.shift();
      // Hand the slot straight to the next waiter, so a late arrival cannot jump the queue.
      if (next === undefined) active--;
      else next();
    });

  const acquire = (): Promise<() => void> => {
    if (active < concurrency) {
      active++;
      return Promise.resolve(slot());
    }
    return new Promise((resolve) => waiting.push(() => resolve(slot())));
  };

  return {
    acquire,
    async run<T>(fn: () => Promise<T>): Promise<T> {
      const release = await acquire();
      try {
        return await fn();
      } finally {
        release();
      }
    },
    get activeCount() {
      return active;
    },
    get pendingCount() {
      return waiting.length;
    },
  };
}
