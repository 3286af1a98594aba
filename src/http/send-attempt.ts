import { emptyChunks } from "./body-bytes.js";
import type { RetryBudget } from "./retry-budget.js";
import { BodyTimeoutError, timedChunks, type BodyLimits } from "./timed-body.js";

/** A logical request across its attempts. */
export interface Call {
  readonly method: string;
  readonly url: URL;
  /** Path and query as shown in errors and events. */
  readonly path: string;
  /** Path and query relative to the base URL, as `onBody` and `digestBody` name a request; undefined when the query holds a secret. */
  readonly target: string | undefined;
  readonly body: string | undefined;
  readonly started: number;
  attempts: number;
}

/** An attempt whose headers came. */
export interface Sent {
  readonly res: Response;
  /** The body's bytes under the idle and total timeouts (empty when there is none). */
  readonly chunks: () => AsyncIterable<Uint8Array>;
}

export interface SenderOptions {
  readonly budget: RetryBudget;
  /** Wait for response headers, per attempt. */
  readonly timeoutMs: number;
  readonly limits: BodyLimits;
  readonly headers: Readonly<Record<string, string>>;
}

/** The shortest a wait on the network is cut to when the budget runs low: a healthy answer gets this long. */
const WAIT_FLOOR_MS = 10_000;

/**
 * Sends one attempt of a call and waits for its headers, under the header timeout; the body is read
 * later through `chunks`, under the body limits. `signal` aborts the attempt at any point (a hedge won).
 */
export function createSender(o: SenderOptions): (call: Call, signal: AbortSignal) => Promise<Sent> {
  const { budget, limits } = o;
  return async (call, signal) => {
    const controller = new AbortController();
    signal.addEventListener("abort", () => controller.abort(), { once: true });
    const startedAt = performance.now();
    // Waits on the network are part of the budget: none lasts past what is left of it.
    const headerMs = budget.capped(Math.min(o.timeoutMs, limits.totalMs), WAIT_FLOOR_MS);
    const timer = setTimeout(() => {
      budget.chargeEnded(headerMs);
      controller.abort();
    }, headerMs);
    const bodyLimits = { idleMs: budget.capped(limits.idleMs, WAIT_FLOOR_MS), totalMs: limits.totalMs };
    const abortBody = (reason: Error) => {
      // A stall spent its idle limit waiting; a body past the total limit, the whole attempt.
      if (reason instanceof BodyTimeoutError) budget.chargeEnded(reason.which === "idle" ? reason.limitMs : performance.now() - startedAt);
      controller.abort(reason);
    };
    try {
      const res = await fetch(call.url, {
        method: call.method,
        headers: call.body === undefined ? { ...o.headers, accept: "application/json, application/x-ndjson" } : { ...o.headers, "content-type": "application/json" },
        ...(call.body === undefined ? {} : { body: call.body }),
        signal: controller.signal,
        // A redirect must never carry the token elsewhere: a 3xx is an answer, not a hop.
        redirect: "manual",
      });
      // Headers are in: from here the body's own timeouts hold (fetch's signal alone would wait for ever).
      const body = res.body;
      const chunks = () => (body === null ? emptyChunks() : timedChunks(body, bodyLimits, startedAt, abortBody));
      return { res, chunks };
    } finally {
      clearTimeout(timer);
    }
  };
}
