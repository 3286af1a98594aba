import { ConfigError } from "../core/errors.js";
import { wholeOption } from "../core/whole-option.js";

/** How hard the client tries again. Every field has a default. */
export interface RetryPolicy {
  /** Attempts in all, the first included; 1 turns retries off. Default 8. */
  readonly maxAttempts?: number | undefined;
  /**
   * Total time budget from the first attempt: a wait that would end past it is not started, the
   * failure is thrown instead. Default 15 minutes, so a nightly job never stalls for hours.
   */
  readonly maxElapsedMs?: number | undefined;
  /** Upper bound of the first backoff; doubles per attempt. Default 500. */
  readonly baseDelayMs?: number | undefined;
  /** Cap of the exponential term. It never lowers a server's `Retry-After`. Default 30,000. */
  readonly maxDelayMs?: number | undefined;
  /** Uniform in [0, 1); injected for tests. Default `Math.random`. */
  readonly random?: (() => number) | undefined;
}

export type ResolvedRetryPolicy = Required<{ [K in keyof RetryPolicy]: Exclude<RetryPolicy[K], undefined> }>;

/**
 * Why an attempt failed in a way worth retrying: a status the server uses for "not now"
 * (`rate_limited` 429, `request_timeout` 408, `unavailable` 503), a flaky hop (`bad_gateway` 502, `gateway_timeout` 504,
 * `server_error` 500), or the connection itself (`network`: refused or reset; `timeout`: no headers in
 * time; `cut`: a body ended early, a JSON body that does not parse or an NDJSON body that stops in the
 * middle of a line before any line was handed out).
 */
export type RetryReason = "rate_limited" | "request_timeout" | "unavailable" | "bad_gateway" | "gateway_timeout" | "server_error" | "network" | "timeout" | "cut";

/** One failed attempt, as the policy needs to see it. */
export interface FailedAttempt {
  /** Attempts made so far, this one included (1 after the first failure). */
  readonly attempt: number;
  /** Time from the first attempt to now. */
  readonly elapsedMs: number;
  /** The server's `Retry-After`, already in milliseconds. */
  readonly retryAfterMs?: number | undefined;
}

export const DEFAULT_RETRY_POLICY: ResolvedRetryPolicy = {
  maxAttempts: 8,
  maxElapsedMs: 15 * 60_000,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  random: Math.random,
};

/** Applies defaults; throws ConfigError naming the bad field and value. */
export function resolveRetryPolicy(policy: RetryPolicy = {}): ResolvedRetryPolicy {
  const random = policy.random ?? DEFAULT_RETRY_POLICY.random;
  if (typeof random !== "function") throw new ConfigError(`Expected \`retry.random\` to be a function, got ${typeof random}`);
  return {
    maxAttempts: wholeOption("retry.maxAttempts", policy.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts, 1),
    maxElapsedMs: wholeOption("retry.maxElapsedMs", policy.maxElapsedMs ?? DEFAULT_RETRY_POLICY.maxElapsedMs, 0),
    baseDelayMs: wholeOption("retry.baseDelayMs", policy.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs, 0),
    maxDelayMs: wholeOption("retry.maxDelayMs", policy.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs, 0),
    random,
  };
}

/**
 * The wait before the next attempt, or null to give up.
 *
 * Full jitter (a uniform draw from 0 to `min(maxDelayMs, baseDelayMs * 2^(attempt-1))`) spreads the
 * retries of many clients that failed together, instead of having them return in lockstep. A
 * `Retry-After` is a floor on top: the server knows when it will take us back, and a cap meant to bound
 * our own guesses must not shorten its answer (waiting less only earns another 429).
 */
export function retryDelay(policy: ResolvedRetryPolicy, failed: FailedAttempt): number | null {
  if (failed.attempt >= policy.maxAttempts) return null;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failed.attempt - 1));
  const jittered = Math.floor(policy.random() * ceiling);
  const delay = Math.max(jittered, failed.retryAfterMs ?? 0);
  if (failed.elapsedMs + delay > policy.maxElapsedMs) return null;
  return delay;
}

/** The retry reason of an HTTP status, or null when the status is final (4xx but 408 and 429, 501, 505...). */
export function retryReasonOf(status: number): RetryReason | null {
  switch (status) {
    case 429:
      return "rate_limited";
    // The server gave up waiting for our request: it was not processed, another attempt may pass.
    case 408:
      return "request_timeout";
    case 503:
      return "unavailable";
    case 502:
      return "bad_gateway";
    case 504:
      return "gateway_timeout";
    case 500:
      return "server_error";
    default:
      return null;
  }
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * Whether a failure may be retried for this method. A POST that met a 502, a 504 or a broken connection
 * may have been processed (spec section 7), so only the refusals that say it was not (408, 429, 503)
 * are retried for it.
 */
export function mayRetry(method: string, reason: RetryReason): boolean {
  return IDEMPOTENT.has(method.toUpperCase()) || reason === "rate_limited" || reason === "request_timeout" || reason === "unavailable";
}
