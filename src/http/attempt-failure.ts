import type { AuthMode } from "./credentials.js";
import { errorFromResponse } from "./error-from-response.js";
import { NetworkError, StreamCutError, type ServiceError, type StreamCutReason } from "./http-errors.js";
import { describeError } from "../core/describe-error.js";
import { redactSecrets, safeCause } from "../core/secrets.js";
import { retryReasonOf, type RetryReason } from "./retry-policy.js";
import type { Call } from "./send-attempt.js";
import { BodyTimeoutError } from "./timed-body.js";

/** Why one attempt of a call failed. */
export type Failure =
  | { readonly kind: "status"; readonly status: number; readonly text: string; readonly retryAfterMs: number | undefined }
  /** `permanent`: a failure no retry can mend (`isPermanentNetworkError`): thrown at once. */
  | { readonly kind: "network"; readonly reason: "network" | "timeout" | "cut" | "permanent"; readonly error: unknown }
  /** An NDJSON body ended early before handing out any line. */
  | { readonly kind: "stream"; readonly reason: StreamCutReason; readonly error: unknown };

/** What a failure's error names besides the call. */
export interface FailureContext {
  readonly auth: AuthMode;
  readonly tokenSource: string;
  /** The header timeout, as a message names it. */
  readonly timeoutMs: number;
}

/** The typed error a final failure is thrown as. */
export function failureError(call: Call, failure: Failure, o: FailureContext): ServiceError {
  if (failure.kind === "status") {
    return errorFromResponse(failure.status, failure.text, failure.retryAfterMs, { method: call.method, path: call.path, attempts: call.attempts, auth: o.auth, tokenSource: o.tokenSource });
  }
  const cause = safeCause(failure.error);
  if (failure.kind === "stream") return new StreamCutError(call.method, call.path, call.attempts, failure.reason, 0, streamDetail(failure.error, cause));
  const retried = call.attempts > 1 ? ` after ${call.attempts} attempts` : "";
  const what =
    failure.reason === "timeout" ? (failure.error instanceof BodyTimeoutError ? failure.error.message : `no response headers within ${o.timeoutMs} ms`)
    : failure.reason === "cut" ? "the body ended early or is not valid JSON"
    : failure.reason === "permanent" ? `connection impossible (${redactSecrets(describeError(failure.error))}); not retried: check the service URL`
    : `connection failed (${redactSecrets(describeError(failure.error))})`;
  const kind = failure.reason === "permanent" ? "network" : failure.reason;
  return new NetworkError(`${call.method} ${call.path} failed${retried}: ${what}`, call.method, call.path, call.attempts, kind, { cause });
}

/** The StreamCutError options of a body failure: a timeout names its limit in the message. */
export function streamDetail(error: unknown, cause: unknown): { cause: unknown; detail?: string } {
  return error instanceof BodyTimeoutError ? { cause, detail: error.message } : { cause };
}

/** Of two failed attempts of one call, the one to back off from: the server's longer `Retry-After`, else the later. */
export function worseFailure(a: Failure, b: Failure): Failure {
  const after = (f: Failure) => (f.kind === "status" ? (f.retryAfterMs ?? 0) : 0);
  return after(a) > after(b) ? a : b;
}

/**
 * Why a failure may be retried (budget, attempts and method allowing), or null when it is final: a
 * retryable status, or a network or stream failure that is not permanent.
 */
export function retryReason(failure: Failure): RetryReason | null {
  if (failure.kind === "status") return retryReasonOf(failure.status);
  if (failure.kind === "network") return failure.reason === "permanent" ? null : failure.reason;
  return failure.reason === "reset" ? "network" : failure.reason === "stalled" ? "timeout" : failure.reason;
}
