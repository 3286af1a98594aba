/**
 * How many requests a pull keeps started at once when it walks a list of runs: enough to keep any client
 * limit busy, few enough that what waits is bounded. Starting one promise per run of a 100,000-run world
 * held every run's closure, URL and promise at once (issue 21: memory flat in the world's size).
 */
const IN_FLIGHT = 64;

/**
 * The window for results taken as they complete (a run's score, a run's own records): wide enough that the
 * requests waiting out retries at once do not leave the client's slots idle (issue 40: a 1 s `Retry-After`
 * at the head of an in-order window of 64 held 63 finished scores and let nothing start). Results wait only
 * for the one take before them, so what is held at once is the requests waiting, not their answers.
 */
export const WIDE_IN_FLIGHT = 1024;

/**
 * Runs `start` on each item with at most `width` started and not yet taken, and hands each result to `take`
 * as it completes, one take at a time (not in the items' order): an item waiting out a retry holds up no
 * other (issue 40: a window taken in order waits for its head). For results whose order the caller restores itself.
 * The first failure (of a `start` or a `take`) is thrown once the started work has settled, and nothing
 * is taken after it. `ready`, when given, says which item may start next (its position; undefined: none
 * is left), each once: items then start as an earlier stage readies them, not in list order.
 */
export async function asCompleted<T, R>(
  items: ArrayLike<T>,
  start: (item: T, index: number) => Promise<R>,
  take: (result: R, item: T, index: number) => void | Promise<void>,
  width = IN_FLIGHT,
  ready?: () => Promise<number | undefined>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  let taking: Promise<void> = Promise.resolve();
  const worker = async () => {
    while (failure === undefined) {
      let ahead: number | undefined;
      try {
        ahead = ready === undefined ? (next < items.length ? next++ : undefined) : await ready();
      } catch (error) {
        failure ??= { error };
      }
      if (ahead === undefined) return;
      const index = ahead;
      const item = items[index] as T;
      try {
        const result = await start(item, index);
        // Takes run one after another, in the order their results came.
        const taken = taking.then(() => (failure === undefined ? take(result, item, index) : undefined));
        taking = taken.catch(() => undefined);
        await taken;
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
}
