import type { StreamCutReason } from "./http-errors.js";
import type { RetryReason } from "./retry-policy.js";

/** A retry the client is about to wait for. Emitted before the wait, so a log shows it as it happens. */
export interface RetryEvent {
  readonly type: "retry";
  readonly method: string;
  /** Path and query, secrets removed. */
  readonly path: string;
  readonly reason: RetryReason;
  /** The HTTP status, when the failure was one. */
  readonly status?: number;
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  readonly delayMs: number;
}

/** An NDJSON stream ended early after handing out lines; a StreamCutError follows. */
export interface StreamCutEvent {
  readonly type: "stream_cut";
  readonly method: string;
  readonly path: string;
  readonly reason: StreamCutReason;
  readonly linesDelivered: number;
}

/** A slow GET got a second copy (a hedge); the first of the two to answer is used. */
export interface HedgeEvent {
  readonly type: "hedge";
  readonly method: string;
  readonly path: string;
  /** How long the first attempt had waited. */
  readonly afterMs: number;
}

/** What the client reports to `onEvent`, for the nightly job to log and count. Never carries the token. */
export type ClientEvent = RetryEvent | HedgeEvent | StreamCutEvent;
