import type { ToWorker } from "./protocol.js";

/**
 * A converting thread's messages, handled one at a time, decisions first: a decided unit is encoded and
 * written while its successors' batches wait, instead of queueing behind them and stalling the writer.
 */
export class JobQueue {
  readonly #decides: ToWorker[] = [];
  readonly #batches: ToWorker[] = [];
  #running = false;

  constructor(
    private readonly handle: (message: ToWorker) => Promise<void>,
    private readonly fail: (error: unknown) => void,
  ) {}

  push(message: ToWorker): void {
    (message.type === "decide" ? this.#decides : this.#batches).push(message);
    if (!this.#running) void this.#run();
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      for (;;) {
        const next = this.#decides.shift() ?? this.#batches.shift();
        if (next === undefined) break;
        await this.handle(next);
      }
    } catch (error) {
      this.fail(error);
    } finally {
      this.#running = false;
    }
  }
}
