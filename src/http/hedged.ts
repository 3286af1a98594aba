/** How one attempt ended: a value to use, or a failure to back off from. */
export type Outcome<T, F> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: F };

export interface HedgeRace<T, F> {
  /**
   * Starts one attempt in the slot `release` frees; `signal` aborts it when the other won. It frees the
   * slot when it ends, or hands it on with its value. Never rejects: a failure is an outcome.
   */
  readonly start: (signal: AbortSignal, release: () => void) => Promise<Outcome<T, F>>;
  /** The first attempt's slot. */
  readonly slot: () => void;
  /** How long the first attempt may take before a hedge is asked for (Infinity: never). */
  readonly afterMs: number;
  /** A hedge slot (its release), or null when no hedge may go out now. */
  readonly tryHedge: () => (() => void) | null;
  /** A value that came after the race was decided: free what it holds. */
  readonly discard: (value: T) => void;
  /** Of two failures, the one to back off from. */
  readonly worse: (a: F, b: F) => F;
  /** A failure the call will retry: it abandons an attempt already out longer than `afterMs`, rather than wait on it. */
  readonly transient: (failure: F) => boolean;
}

/**
 * Runs a first attempt and, when it has not ended within `afterMs`, a second copy of it as soon as a hedge
 * slot is free (asked every `afterMs`): the first success wins and the other attempt is aborted. A failure
 * waits for the other attempt while it is younger than `afterMs`; one older is slow, and a transient failure abandons it (the
 * call retries after its backoff, holding no slot, instead of waiting on, say, a gateway's timeout). When
 * both fail, the worse failure is the outcome.
 */
export function hedged<T, F>(race: HedgeRace<T, F>): Promise<Outcome<T, F>> {
  return new Promise((resolve, reject) => {
    const controllers: AbortController[] = [];
    const launched = new Map<AbortController, number>();
    let out = 0;
    let decided = false;
    let failed: F | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const end = (winner?: AbortController) => {
      decided = true;
      clearTimeout(timer);
      for (const controller of controllers) if (controller !== winner) controller.abort();
    };
    const settle = (outcome: Outcome<T, F>, winner?: AbortController) => {
      end(winner);
      resolve(outcome);
    };

    const allSlow = () => {
      const now = performance.now();
      for (const at of launched.values()) if (now - at < race.afterMs) return false;
      return true;
    };

    const launch = (release: () => void) => {
      const controller = new AbortController();
      controllers.push(controller);
      launched.set(controller, performance.now());
      out++;
      void race.start(controller.signal, release).then((outcome) => {
        out--;
        launched.delete(controller);
        if (decided) {
          if (outcome.ok) race.discard(outcome.value);
          return;
        }
        if (outcome.ok) return settle(outcome, controller);
        failed = failed === undefined ? outcome.failure : race.worse(failed, outcome.failure);
        if (out === 0 || (race.transient(outcome.failure) && allSlow())) settle({ ok: false, failure: failed });
      }, (error: unknown) => {
        // A bug, not a failure of the service: the call ends with it rather than waiting for ever.
        out--;
        launched.delete(controller);
        if (decided) return;
        end();
        reject(error);
      });
    };

    const ask = () => {
      if (decided || out !== 1 || failed !== undefined) return;
      const slot = race.tryHedge();
      if (slot !== null) launch(slot);
      // None free or earned at this instant: asked again, so a 504 that comes after a second is not
      // waited out whole because the hedges were all out when it turned slow.
      else timer = setTimeout(ask, race.afterMs);
    };
    launch(race.slot);
    if (Number.isFinite(race.afterMs)) timer = setTimeout(ask, race.afterMs);
  });
}
