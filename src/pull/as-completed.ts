import { IN_FLIGHT } from "./in-order.js";

/**
 * Runs `start` on each item with at most `width` started and not yet taken, and hands each result to `take`
 * as it completes, one take at a time (not in the items' order): an item waiting out a retry holds up no
 * other (issue 40; {@link inOrder} waits for its head). For results whose order the caller restores itself.
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
