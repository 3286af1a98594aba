/**
 * The flushes to disk of a staging's files, each started when its file is closed and all awaited by the
 * publish before the rename that makes the files visible: a file's fsync runs while the job writes the
 * next one, and the publish waits once for all of them instead of once per file.
 */
export class PendingFlushes {
  readonly #pending = new Set<Promise<void>>();

  /** Adds a started flush; a failure is kept for {@link settle}, never an unhandled rejection. */
  add(flush: Promise<void>): void {
    this.#pending.add(flush);
    flush.then(
      () => this.#pending.delete(flush),
      () => undefined,
    );
  }

  /** Waits for every flush added so far, all of them even when one fails; rejects with the first failure. */
  async settle(): Promise<void> {
    const flushes = [...this.#pending];
    this.#pending.clear();
    const failed = (await Promise.allSettled(flushes)).find((result) => result.status === "rejected");
    if (failed !== undefined) throw failed.reason;
  }
}
