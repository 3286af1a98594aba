import { setTimeout as sleep } from "node:timers/promises";

/**
 * Time as the client sees it. Backoff waits and retry budgets go through this, so tests can prove a
 * two-minute `Retry-After` is honoured without waiting two minutes.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch; also what an HTTP-date `Retry-After` is measured against. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The wall clock and real timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms) => {
    if (ms > 0) await sleep(ms);
  },
};
