/**
 * How many requests a pull keeps started at once when it walks a list of runs: enough to keep any client
 * limit busy, few enough that what waits is bounded. Starting one promise per run of a 100,000-run world
 * held every run's closure, URL and promise at once (issue 21: memory flat in the world's size).
 */
export const IN_FLIGHT = 64;

/**
 * The window for results taken as they complete (a run's score, a run's own records): wide enough that the
 * requests waiting out retries at once do not leave the client's slots idle (issue 40: a 1 s `Retry-After`
 * at the head of an in-order window of 64 held 63 finished scores and let nothing start). Results wait only
 * for the one take before them, so what is held at once is the requests waiting, not their answers.
 */
export const WIDE_IN_FLIGHT = 1024;

/**
 * Runs `start` on each item with at most `width` started and not yet taken, and hands each result to
 * `take` in the items' order (not completion order), so what follows is as deterministic as a
 * `Promise.all` over the whole list while memory holds only `width` results. The first failure (of a
 * `start` or a `take`) is thrown once the started work has settled, and nothing after it is taken.
 */
export async function inOrder<T, R>(
  items: ArrayLike<T>,
  start: (item: T, index: number) => Promise<R>,
  take: (result: R, item: T, index: number) => void | Promise<void>,
  width = IN_FLIGHT,
): Promise<void> {
  const window: Promise<R>[] = [];
  let next = 0;
  const launch = () => {
    const index = next++;
    const started = start(items[index] as T, index);
    // Awaited in order below; until then a failure must not count as unhandled.
    started.catch(() => undefined);
    window.push(started);
  };
  try {
    while (next < items.length && window.length < width) launch();
    for (let taken = 0; taken < items.length; taken++) {
      const result = await (window.shift() as Promise<R>);
      await take(result, items[taken] as T, taken);
      if (next < items.length) launch();
    }
  } finally {
    await Promise.allSettled(window);
  }
}
