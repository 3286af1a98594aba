import { ConfigError } from "../core/errors.js";
import { wholeOption } from "../core/whole-option.js";
import { EVALSHARD_VERSION } from "../core/version.js";
import { decodeText, hashed, readBytes } from "./body-bytes.js";
import { BodyHasher, type BodyDigest } from "./body-digest.js";
import type { ClientEvent } from "./client-event.js";
import { systemClock, type Clock } from "./clock.js";
import { checkAuthMode, checkToken, type AuthMode } from "./credentials.js";
import { failureError, retryReason, streamDetail, type Failure } from "./attempt-failure.js";
import { createAttempt } from "./attempt.js";
import { HedgePolicy } from "./hedge-policy.js";
import { RetryBudgetError, StreamCutError } from "./http-errors.js";
import { limitConcurrency } from "./limit-concurrency.js";
import { BodyTimeoutError } from "./timed-body.js";
import { ndjsonLines, PartialLineError } from "./ndjson-lines.js";
import { addSecrets, redactSecrets, safeCause, TOKEN_ENV } from "../core/secrets.js";
import { checkBaseUrl, displayPath, hasSecretParam, requestUrl, type Query } from "./request-url.js";
import { readAhead, type ReadAhead } from "./read-ahead.js";
import { RetryBudget } from "./retry-budget.js";
import { mayRetry, resolveRetryPolicy, retryDelay, type RetryPolicy } from "./retry-policy.js";
import { createSender, type Call } from "./send-attempt.js";

export interface ServiceClientOptions {
  /** The service root, e.g. `https://evals.example.com`; plain http only to loopback unless allowed. */
  readonly baseUrl: string;
  readonly auth: AuthMode;
  /** Sent only as `Authorization: Bearer`; never shown in errors, events or `toString`/`toJSON`. */
  readonly token: string;
  /** Where the token came from, for error messages. Default `EVAL_API_KEY` or `EVAL_OWNER_TOKEN`. */
  readonly tokenSource?: string | undefined;
  /**
   * Requests in flight at most. Default 4. A streamed body holds its slot until it is read to the end,
   * fails, or its loop is left (`break` calls the iterator's `return`); so with every slot taken by
   * streams, a request made from inside one of their loops waits for ever.
   */
  readonly concurrency?: number | undefined;
  readonly retry?: RetryPolicy | undefined;
  /** Time for backoff waits and the retry budget. Default the wall clock. */
  readonly clock?: Clock | undefined;
  /**
   * What every retry of this client draws from: one night's clients share one. Default a budget of its own
   * of the policy's `maxElapsedMs` (15 minutes), for all its requests together.
   */
  readonly budget?: RetryBudget | undefined;
  /** Default `evalshard/<version>`. */
  readonly userAgent?: string | undefined;
  /** Wait for response headers, per attempt, in real time. Default 90 s (the service's own limit is 60 s). */
  readonly timeoutMs?: number | undefined;
  /**
   * Longest silence while a body is read, per attempt, in real time: a stalled body or a half-open
   * connection fails (and is retried) instead of hanging the job. Default 120 s.
   */
  readonly idleTimeoutMs?: number | undefined;
  /** Longest one attempt may take, headers and body, in real time. Default 1 hour (a bulk export of 500 runs is large). */
  readonly totalTimeoutMs?: number | undefined;
  /** Allow plain http to a host other than loopback. Default false. */
  readonly allowInsecureHttp?: boolean | undefined;
  /**
   * Send a second copy of a GET that is slow (its answer, or an NDJSON answer's first line, later than three
   * times the recent 90th percentile, at least 25 ms) and use whichever answers first, aborting the
   * other; a copy that fails with a retryable error abandons the slow one too and the call backs off. Hedges
   * do not take a `concurrency` slot but one of as many hedge slots (so at most twice `concurrency` requests
   * are out), and at most one attempt in ten is a hedge. Default true.
   */
  readonly hedge?: boolean | undefined;
  /** Hears every retry, hedge and stream cut. */
  readonly onEvent?: ((event: ClientEvent) => void) | undefined;
  /**
   * Hears the digest of every 2xx body `getJson` parsed or `getNdjson` read to its end (not a body cut
   * or abandoned), for requests whose query holds no secret-looking parameter. Bodies are hashed only
   * when this is set.
   */
  readonly onBody?: ((digest: BodyDigest) => void) | undefined;
}

export interface RequestOptions {
  readonly query?: Query | undefined;
  /** Sent as JSON. */
  readonly body?: unknown;
}

/** A client for one service and one credential. */
export interface ServiceClient {
  readonly baseUrl: string;
  readonly auth: AuthMode;
  /** GET a JSON body, retried per the policy. Error statuses throw the matching HttpError subclass. */
  getJson<T = unknown>(path: string, query?: Query): Promise<T>;
  /**
   * GET an NDJSON body as complete lines (never a partial one), read lazily. Failures before any line
   * is handed out are retried; a body that ends early after that throws StreamCutError once the complete
   * lines are out. See `completeNdjson` for the re-request that fills the gap.
   */
  getNdjson(path: string, query?: Query): AsyncIterable<string>;
  /**
   * GET a body read to its end and never parsed: its size and sha256 (retried as getJson is; error
   * statuses throw). `target` is a path with its query, as a {@link BodyDigest} names it.
   */
  digestBody(target: string): Promise<BodyDigest>;
  /** Any method with a JSON body and answer. Only 429 and 503 are retried for POST and PATCH. */
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>;
  toJSON(): { baseUrl: string; auth: AuthMode; tokenSource: string };
  toString(): string;
}

/**
 * What a pull reads the service's exports with: a {@link ServiceClient} is one, and so is any wrapper
 * (caching, logging, rate limiting) that offers these four members.
 */
export type ExportClient = Pick<ServiceClient, "baseUrl" | "auth" | "getJson" | "getNdjson">;

interface Opened extends ReadAhead {
  readonly release: () => void;
}

/** Creates a client; throws ConfigError naming the bad option (never the token's value). */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  checkAuthMode(options.auth);
  const { auth, token } = options;
  const tokenSource = options.tokenSource ?? TOKEN_ENV[auth];
  checkToken(token, tokenSource);
  // Whatever this process writes from now on (stderr, errors and their causes, quarantine, manifest, shards) is kept clear of it.
  addSecrets(token);
  const base = checkBaseUrl(options.baseUrl, options.allowInsecureHttp ?? false);
  const baseUrl = base.href.replace(/\/+$/, "");
  const policy = resolveRetryPolicy(options.retry);
  const concurrency = options.concurrency ?? 4;
  const limit = limitConcurrency(concurrency);
  const clock = options.clock ?? systemClock;
  const budget = options.budget ?? new RetryBudget(policy.maxElapsedMs, clock);
  const timeoutMs = options.timeoutMs ?? 90_000;
  const limits = { idleMs: wholeOption("idleTimeoutMs", options.idleTimeoutMs ?? 120_000, 1), totalMs: wholeOption("totalTimeoutMs", options.totalTimeoutMs ?? 3_600_000, 1) };
  wholeOption("timeoutMs", timeoutMs, 1);
  const headers = { authorization: `Bearer ${token}`, "user-agent": options.userAgent ?? `evalshard/${EVALSHARD_VERSION}` };
  const emit = (event: ClientEvent) => options.onEvent?.(event);
  const onBody = options.onBody;
  const basePath = base.pathname.replace(/\/+$/, "");
  const targetOf = (url: URL) => (url.pathname.startsWith(basePath) && !hasSecretParam(url) ? url.pathname.slice(basePath.length) + url.search : undefined);

  const newCall = (method: string, path: string, query: Query | undefined, body: unknown): Call => {
    if (typeof method !== "string" || !/^[A-Za-z]+$/.test(method)) throw new ConfigError(`Expected an HTTP method such as "GET", got ${JSON.stringify(method)}`);
    const url = requestUrl(base, path, query);
    return { method: method.toUpperCase(), url, path: redactSecrets(displayPath(url)), target: targetOf(url), body: body === undefined ? undefined : JSON.stringify(body), started: clock.now(), attempts: 0 };
  };

  const attempt = createAttempt({
    limit,
    budget,
    clock,
    send: createSender({ budget, timeoutMs, limits, headers }),
    hedges: options.hedge === false ? null : new HedgePolicy(concurrency),
    emit,
  });

  /** Waits before the next attempt, or throws the failure as a typed error when it is final or the budget is spent. */
  const backOff = async (call: Call, failure: Failure): Promise<void> => {
    const reason = retryReason(failure);
    const retryAfterMs = failure.kind === "status" ? failure.retryAfterMs : undefined;
    const policyDelayMs = reason !== null && mayRetry(call.method, reason) ? retryDelay(policy, { attempt: call.attempts, elapsedMs: clock.now() - call.started, retryAfterMs }) : null;
    // A Retry-After is the server's floor: waiting less than it only earns another refusal.
    const overBudget = policyDelayMs !== null && (budget.isSpent() || (retryAfterMs ?? 0) > budget.leftMs());
    if (reason === null || policyDelayMs === null || overBudget) {
      if (failure.kind === "stream") emit({ type: "stream_cut", method: call.method, path: call.path, reason: failure.reason, linesDelivered: 0 });
      const error = failureError(call, failure, { auth, tokenSource, timeoutMs });
      throw overBudget ? new RetryBudgetError(budget.describe(), error) : error;
    }
    const delayMs = Math.min(policyDelayMs, budget.leftMs());
    const status = failure.kind === "status" ? { status: failure.status } : {};
    emit({ type: "retry", method: call.method, path: call.path, reason, ...status, attempt: call.attempts, delayMs });
    const waited = budget.wait();
    try {
      await clock.sleep(delayMs);
    } finally {
      waited();
    }
  };

  /** Sends until a 2xx arrives and its first line is in (its slot still held: the caller reads the rest, then releases). */
  const open = async (call: Call): Promise<Opened> => {
    for (;;) {
      const outcome = await attempt<Opened>(
        call,
        "first_line",
        async (sent, release) => {
          try {
            return { ok: true, value: { ...(await readAhead(sent)), release } };
          } catch (error) {
            release();
            return { ok: false, failure: { kind: "stream", reason: error instanceof BodyTimeoutError ? "stalled" : "reset", error } };
          }
        },
        (late) => {
          late.cancel();
          late.release();
        },
      );
      if (outcome.ok) return outcome.value;
      // The slot is free during the wait, so one backing-off request does not hold up the others.
      await backOff(call, outcome.failure);
    }
  };

  const request = async <T>(method: string, path: string, requestOptions: RequestOptions = {}): Promise<T> => {
    const call = newCall(method, path, requestOptions.query, requestOptions.body);
    for (;;) {
      const outcome = await attempt<{ value: T; bytes: Buffer | undefined }>(
        call,
        "answer",
        async ({ res, chunks }, release) => {
          try {
            const bytes = await readBytes(chunks());
            const text = decodeText(bytes);
            if (text === "" && (res.status === 204 || call.method === "HEAD")) return { ok: true, value: { value: undefined as T, bytes: undefined } };
            try {
              return { ok: true, value: { value: JSON.parse(text) as T, bytes } };
            } catch (error) {
              return { ok: false, failure: { kind: "network", reason: "cut", error } };
            }
          } catch (error) {
            return { ok: false, failure: { kind: "network", reason: error instanceof BodyTimeoutError ? "timeout" : "network", error } };
          } finally {
            release();
          }
        },
        () => undefined,
      );
      if (!outcome.ok) {
        await backOff(call, outcome.failure);
        continue;
      }
      const { value, bytes } = outcome.value;
      if (onBody !== undefined && call.target !== undefined && call.method === "GET" && bytes !== undefined) {
        const hasher = new BodyHasher();
        hasher.update(bytes);
        onBody(hasher.digest(call.target));
      }
      return value;
    }
  };

  async function* ndjson(path: string, query: Query | undefined): AsyncGenerator<string, void, undefined> {
    const call = newCall("GET", path, query, undefined);
    for (;;) {
      const { chunks, release } = await open(call);
      let delivered = 0;
      let failure: Failure;
      const hasher = onBody !== undefined && call.target !== undefined ? new BodyHasher() : undefined;
      try {
        for await (const line of ndjsonLines(hasher === undefined ? chunks() : hashed(chunks(), hasher))) {
          delivered++;
          // An export line that echoes a secret must not carry it into a spool, a shard or the quarantine.
          yield redactSecrets(line);
        }
        if (hasher !== undefined) onBody?.(hasher.digest(call.target as string));
        return;
      } catch (error) {
        const reason = error instanceof PartialLineError ? "cut" : error instanceof BodyTimeoutError ? "stalled" : "reset";
        // Lines already handed out cannot be taken back, and the exports have no cursor to resume from:
        // only the caller knows how to tell a record it has from one it lacks.
        if (delivered > 0) {
          emit({ type: "stream_cut", method: call.method, path: call.path, reason, linesDelivered: delivered });
          const cut = new StreamCutError(call.method, call.path, call.attempts, reason, delivered, streamDetail(error, safeCause(error)));
          // A cut is re-requested by the caller (completeNdjson): with the budget spent, that is no longer on.
          throw budget.isSpent() ? new RetryBudgetError(budget.describe(), cut) : cut;
        }
        failure = { kind: "stream", reason, error };
      } finally {
        release();
      }
      await backOff(call, failure);
    }
  }

  const digestBody = async (target: string): Promise<BodyDigest> => {
    const call = newCall("GET", target, undefined, undefined);
    if (call.target === undefined) throw new ConfigError(`Expected a request target without secret-looking parameters, got ${JSON.stringify(call.path)}`);
    for (;;) {
      const { chunks, release } = await open(call);
      let failure: Failure;
      try {
        const hasher = new BodyHasher();
        for await (const chunk of chunks()) hasher.update(chunk);
        return hasher.digest(call.target);
      } catch (error) {
        failure = { kind: "network", reason: error instanceof BodyTimeoutError ? "timeout" : "network", error };
      } finally {
        release();
      }
      await backOff(call, failure);
    }
  };

  const shown = () => `ServiceClient(${auth} @ ${baseUrl}, token from ${tokenSource})`;
  return {
    baseUrl,
    auth,
    getJson: (path, query) => request("GET", path, { query }),
    getNdjson: (path, query) => ndjson(path, query),
    digestBody,
    request,
    toJSON: () => ({ baseUrl, auth, tokenSource }),
    toString: shown,
    [Symbol.for("nodejs.util.inspect.custom")]: shown,
  } as ServiceClient;
}
