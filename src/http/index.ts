// The client of the agent-evaluation service: retries, backoff, typed errors, bounded concurrency.
//
// A cut NDJSON stream is not resumed inside getNdjson once it has handed out a line: lines cannot be
// taken back, the bulk exports have no cursor, and newest-first order shifts as runs complete, so only
// the caller can tell a record it has from one it lacks. getNdjson throws StreamCutError (with the count
// of complete lines delivered) and completeNdjson is the ready-made recovery: request again, skip by
// identity. A cut before the first line is just a failed attempt and is retried in place.
export { createServiceClient } from "./service-client.js";
export { completeNdjson } from "./complete-ndjson.js";
export { credentialsFromEnv } from "./credentials.js";
export { TOKEN_ENV } from "../core/secrets.js";
export { resolveRetryPolicy, retryDelay, retryReasonOf, mayRetry } from "./retry-policy.js";
export { parseRetryAfter } from "./parse-retry-after.js";
export { parseErrorBody } from "./error-body.js";
export { limitConcurrency } from "./limit-concurrency.js";
export { systemClock } from "./clock.js";
export {
  ServiceError,
  HttpError,
  BadRequestError,
  AuthError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
  NetworkError,
  StreamCutError,
  RetryBudgetError,
} from "./http-errors.js";
export { RetryBudget } from "./retry-budget.js";

export type { ServiceClient, ExportClient, ServiceClientOptions } from "./service-client.js";
export type { AuthMode } from "./credentials.js";
export type { RetryPolicy } from "./retry-policy.js";
export type { Clock } from "./clock.js";
export type { ClientEvent } from "./client-event.js";
export type { ConflictReason } from "./http-errors.js";
export type { Query } from "./request-url.js";
export type { BodyDigest } from "./body-digest.js";
