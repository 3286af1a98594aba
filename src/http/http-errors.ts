import { EvalshardError } from "../core/errors.js";

/**
 * Errors the service client throws. Every one names the request (`method`, and `path` with its query,
 * secrets removed) and never the credential. The tree, after ky's:
 *
 * ServiceError
 * ├── HttpError (the server answered with an error status)
 * │   ├── BadRequestError 400/422, AuthError 401, ForbiddenError 403, NotFoundError 404,
 * │   └── ConflictError 409, RateLimitError 429, ServerError 5xx
 * ├── NetworkError (no usable answer: connection refused or reset, timeout, body not JSON)
 * ├── StreamCutError (an NDJSON body ended early, after some complete lines)
 * └── RetryBudgetError (a failure met a spent retry budget; the failure is its cause)
 */
export class ServiceError extends EvalshardError {
  constructor(
    message: string,
    readonly method: string,
    readonly path: string,
    /** Attempts made, retries included. */
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** What the server said about an error status. */
export interface HttpErrorInit {
  readonly status: number;
  /** The envelope's `error.code`, or the spec's code for the status when the body has none. */
  readonly code: string;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  /** The envelope's `error.message` or the plain `detail`, cleaned of control characters and secrets. */
  readonly serverMessage: string;
  /** A top-level `detail` string, when the body has one (spec section 7 rule 6). */
  readonly detail: string | undefined;
}

export class HttpError extends ServiceError {
  readonly status: number;
  readonly code: string;
  readonly serverMessage: string;
  readonly detail: string | undefined;

  constructor(init: HttpErrorInit, explanation?: string, options?: { cause?: unknown }) {
    const said = init.serverMessage === "" ? "" : ` (server said: ${init.serverMessage})`;
    const retried = init.attempts > 1 ? ` after ${init.attempts} attempts` : "";
    const why = explanation === undefined ? "" : `: ${explanation}`;
    super(`${init.method} ${init.path} failed with ${init.status} ${init.code}${retried}${why}${said}`, init.method, init.path, init.attempts, options);
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.detail = init.detail;
  }
}

/** 400 (or 422): a parameter is invalid, runs are of different scenarios, DPO provenance is missing. Not retried. */
export class BadRequestError extends HttpError {}

/** 401 `invalid_api_key`: the credential is missing, malformed, expired or revoked. Not retried. */
export class AuthError extends HttpError {
  /** Where the credential came from, e.g. `EVAL_API_KEY`; never the credential itself. */
  readonly tokenSource: string;
  constructor(init: HttpErrorInit, tokenSource: string, credential: string) {
    super(init, `the ${credential} from ${tokenSource} is missing, malformed, expired or revoked`);
    this.tokenSource = tokenSource;
  }
}

/** 403 `insufficient_scope`: a scope or entitlement is missing, or the key is not seated in the run. */
export class ForbiddenError extends HttpError {
  /** Scopes the server said are missing (`read:scores`, ...). */
  readonly missingScopes: readonly string[];
  /** The entitlement or feature the server said is missing (`rl_dpo_export`, `simulation`), if any. */
  readonly missingEntitlement: string | undefined;
  /** The key is not seated in the run: no scope or entitlement would help. */
  readonly notSeated: boolean;

  constructor(init: HttpErrorInit, missing: { scopes: readonly string[]; entitlement: string | undefined; notSeated: boolean }) {
    super(init, forbiddenExplanation(missing));
    this.missingScopes = missing.scopes;
    this.missingEntitlement = missing.entitlement;
    this.notSeated = missing.notSeated;
  }
}

/** 404: missing or not owned (the service does not tell them apart). Not retried. */
export class NotFoundError extends HttpError {}

/**
 * Why a 409 happened, read from its message: `not_launched` and `not_scored` pass with time (defer the
 * run to the next pull), `tie` does not (skip the DPO pair).
 */
export type ConflictReason = "not_launched" | "not_scored" | "tie" | "other";

/** 409 `conflict`: a state that forbids the request now. Not retried: the caller decides. */
export class ConflictError extends HttpError {
  readonly reason: ConflictReason;
  constructor(init: HttpErrorInit, reason: ConflictReason) {
    super(init, reason === "other" ? undefined : reason.replace("_", " "));
    this.reason = reason;
  }
}

/** 429 still answered when the retry budget ran out. */
export class RateLimitError extends HttpError {
  /** The last `Retry-After`, in milliseconds, when the server sent one. */
  readonly retryAfterMs: number | undefined;
  constructor(init: HttpErrorInit, retryAfterMs: number | undefined) {
    super(init, retryAfterMs === undefined ? "retry budget spent" : `retry budget spent; the server asks to wait ${Math.ceil(retryAfterMs / 1000)} s`);
    this.retryAfterMs = retryAfterMs;
  }
}

/** A 5xx: final at once (501) or still failing when the retry budget ran out (500, 502, 503, 504). */
export class ServerError extends HttpError {}

export type NetworkFailure = "network" | "timeout" | "cut";

export type StreamCutReason = "cut" | "reset" | "stalled";

/** No usable answer: the connection failed or was reset, no headers came in time, or a JSON body was cut. */
export class NetworkError extends ServiceError {
  readonly reason: NetworkFailure;
  constructor(message: string, method: string, path: string, attempts: number, reason: NetworkFailure, options?: { cause?: unknown }) {
    super(message, method, path, attempts, options);
    this.reason = reason;
  }
}

/**
 * An NDJSON body ended before its end: `cut` (closed cleanly in the middle of a line), `reset` (the
 * connection broke mid-body) or `stalled` (no bytes for the idle timeout, or past the total one). Every line before it was complete and was handed out; the partial line
 * was dropped. The bulk exports have no cursor, so the caller re-requests and skips what it already has
 * (`completeNdjson` does exactly that).
 */
export class StreamCutError extends ServiceError {
  readonly reason: StreamCutReason;
  /** Complete lines handed out by the attempt that was cut. */
  readonly linesDelivered: number;
  /** `detail`: what exactly happened, e.g. which timeout a stalled body hit. */
  constructor(method: string, path: string, attempts: number, reason: StreamCutReason, linesDelivered: number, options?: { cause?: unknown; detail?: string }) {
    const how = options?.detail ?? (reason === "cut" ? "closed in the middle of a line" : reason === "stalled" ? "the body stalled" : "connection reset mid-body");
    super(
      `${method} ${path} ended early (${how}) after ${linesDelivered} complete line(s); the partial line was dropped: re-request and skip what was delivered`,
      method,
      path,
      attempts,
      options,
    );
    this.reason = reason;
    this.linesDelivered = linesDelivered;
  }
}

/**
 * A failure that would have been retried, met once the retry budget (the time a night may spend waiting on
 * failures, see RetryBudget) was spent, or with a `Retry-After` longer than what was left: final. `cause` is
 * the failure as it would have been thrown without retries.
 */
export class RetryBudgetError extends ServiceError {
  constructor(
    /** The budget, as messages show it (`900 s`). */
    readonly budget: string,
    failure: ServiceError,
  ) {
    super(`${failure.message}; not retried: the retry budget (${budget} of waiting on failures) is spent`, failure.method, failure.path, failure.attempts, { cause: failure });
  }
}

function forbiddenExplanation(missing: { scopes: readonly string[]; entitlement: string | undefined; notSeated: boolean }): string {
  const parts: string[] = [];
  if (missing.notSeated) parts.push("the key is not seated in this run");
  if (missing.scopes.length > 0) parts.push(`missing scope ${missing.scopes.join(", ")}`);
  if (missing.entitlement !== undefined) parts.push(`missing entitlement ${missing.entitlement}`);
  return parts.length > 0 ? parts.join("; ") : "forbidden for this credential";
}
