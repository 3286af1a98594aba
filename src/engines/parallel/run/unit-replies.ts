import type { FailedMessage } from "./protocol.js";
import { errorOf } from "./unit-failure.js";
import type { FromUnits } from "./unit-host.js";
import type { UnitThread } from "./unit-thread.js";

/** What a unit thread answers, other than its failure. */
export type UnitReply = Exclude<FromUnits, FailedMessage>;

/**
 * Main's side of one read through the unit threads (the ranking read, or a conversion's pass), from its
 * making until `stop`: the threads' answers go to `receive`, and the read's first failure (a failed message,
 * a thread's error, or one main met) is what every wait then throws.
 */
export class UnitReplies {
  #failure: Error | null = null;
  #wake: (() => void) | null = null;
  readonly #message = (message: FromUnits): void => {
    if (message.type === "failed") return this.fail(errorOf(message));
    try {
      this.receive(message);
    } catch (error) {
      this.fail(error as Error);
    }
    this.wake();
  };

  constructor(
    private readonly threads: readonly UnitThread[],
    private readonly receive: (reply: UnitReply) => void,
  ) {
    for (const w of threads) {
      w.on("message", this.#message);
      w.on("error", this.fail);
    }
  }

  stop(): void {
    for (const w of this.threads) {
      w.off("message", this.#message);
      w.off("error", this.fail);
    }
  }

  /** Fails the read (a thread's 'error' event too: a thread that crashed, its failed message unsent). */
  readonly fail = (error: Error): void => {
    this.#failure ??= error;
    this.wake();
  };

  /** Ends a wait, which looks at its condition again. */
  wake(): void {
    this.#wake?.();
  }

  check(): void {
    if (this.#failure !== null) throw this.#failure;
  }

  /** Waits until `ready()` holds, or throws the first failure. */
  async until(ready: () => boolean): Promise<void> {
    for (;;) {
      this.check();
      if (ready()) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}
