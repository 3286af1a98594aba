import { readText } from "./body-bytes.js";
import type { ClientEvent } from "./client-event.js";
import type { Clock } from "./clock.js";
import { retryReason, worseFailure, type Failure } from "./attempt-failure.js";
import { hedged, type Outcome } from "./hedged.js";
import type { HedgePolicy, HedgeWait } from "./hedge-policy.js";
import type { ConcurrencyLimit } from "./limit-concurrency.js";
import { parseRetryAfter } from "./parse-retry-after.js";
import { isPermanentNetworkError } from "./permanent-failure.js";
import type { RetryBudget } from "./retry-budget.js";
import type { Call, Sent } from "./send-attempt.js";

export interface AttemptDeps {
  readonly limit: ConcurrencyLimit;
  readonly budget: RetryBudget;
  readonly clock: Clock;
  readonly send: (call: Call, signal: AbortSignal) => Promise<Sent>;
  /** Null: no hedges. */
  readonly hedges: HedgePolicy | null;
  readonly emit: (event: ClientEvent) => void;
}

/** What one attempt of a call does once its 2xx headers are in. */
export type UseAnswer<T> = (sent: Sent, release: () => void) => Promise<Outcome<T, Failure>>;

export type Attempt = <T>(call: Call, wait: HedgeWait, use: UseAnswer<T>, discard: (value: T) => void) => Promise<Outcome<T, Failure>>;

/**
 * One attempt of a call in a slot of the client's concurrency, hedged (GET only) when it is slow. An error
 * status or a failed send is a failure; on 2xx headers `use` reads the body and frees the slot, or hands it
 * on with its value.
 */
export function createAttempt({ limit, budget, clock, send, hedges, emit }: AttemptDeps): Attempt {
  return async <T>(call: Call, wait: HedgeWait, use: UseAnswer<T>, discard: (value: T) => void): Promise<Outcome<T, Failure>> => {
    const slot = await limit.acquire();
    const afterMs = hedges === null || call.method !== "GET" ? Infinity : hedges.delayMs(wait);
    return hedged<T, Failure>({
      slot,
      afterMs,
      tryHedge: () => {
        const hedge = hedges?.tryHedge() ?? null;
        if (hedge !== null) emit({ type: "hedge", method: call.method, path: call.path, afterMs: Math.round(afterMs) });
        return hedge;
      },
      discard,
      worse: worseFailure,
      transient: (failure) => retryReason(failure) !== null,
      start: async (signal, release) => {
        call.attempts++;
        hedges?.started();
        const idle = budget.busy();
        const free = () => {
          idle();
          release();
        };
        const startedAt = performance.now();
        let sent: Sent;
        try {
          sent = await send(call, signal);
        } catch (error) {
          free();
          return { ok: false, failure: { kind: "network", reason: isAbort(error) ? "timeout" : isPermanentNetworkError(error) ? "permanent" : "network", error } };
        }
        if (!sent.res.ok) {
          const text = await readText(sent.chunks()).catch(() => "");
          free();
          return { ok: false, failure: { kind: "status", status: sent.res.status, text, retryAfterMs: parseRetryAfter(sent.res.headers.get("retry-after"), clock.now()) } };
        }
        const outcome = await use(sent, free);
        if (outcome.ok) hedges?.record(wait, performance.now() - startedAt);
        return outcome;
      },
    });
  };
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}
