import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { tryParseJson } from "../core/try-parse-json.js";
import type { FaultTiming, GateStamp } from "./emulator-options.js";
import { NO_FAULTS, type FaultInjector, type RequestFaults } from "./fault-injector.js";
import { badRequest, HttpError, invalidCredentials, notFound } from "./http-errors.js";
import { json, type Reply } from "./reply.js";
import type { RequestContext, Router } from "./router.js";
import { sendReply } from "./send-reply.js";
import { tokenEcho } from "./token-echo.js";
import type { World } from "./world.js";

/** Largest request body read (key creation is the only route with one). */
const BODY_MAX_BYTES = 64 * 1024;

export interface HandlerDeps {
  readonly world: World;
  readonly router: Router;
  readonly faults: FaultInjector;
  readonly timing: FaultTiming;
  readonly extraFields: boolean;
  readonly gateStamp: GateStamp;
  /** Aborted when the emulator closes: fault delays (a 504's wait, a slow body's pauses) end at once. */
  readonly closing: AbortSignal;
}

/** Serves one request: routing, injected request faults, the handler, then the body with write faults. */
export async function handleRequest(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // No Date header: two servers with one seed must answer the same bytes.
  res.sendDate = false;
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  const match = deps.router.match(method, url.pathname);
  if (match.kind === "none") return send(res, errorReply(notFound(`No route ${method} ${url.pathname}`)));
  if (match.kind === "method_not_allowed") {
    const error = new HttpError(405, "method_not_allowed", `${method} is not allowed on ${url.pathname}`, {}, { Allow: match.allowed.join(", ") });
    return send(res, errorReply(error));
  }
  const { route, params } = match;
  const faults = route.faultable === false ? NO_FAULTS : deps.faults.forRequest(method, url, route);
  const injected = faults.kind === "echo" ? errorReply(invalidCredentials(tokenEcho(req.headers.authorization))) : await injectedReply(faults, deps.timing, deps.closing);
  if (injected !== null) return send(res, injected);

  const ctx: RequestContext = {
    world: deps.world,
    epoch: deps.world.epoch,
    method,
    url,
    params,
    authorization: req.headers.authorization,
    body: () => readJson(req),
    faults,
    extraFields: deps.extraFields,
    gateStamp: deps.gateStamp,
  };
  let reply: Reply;
  try {
    reply = await route.handler(ctx);
  } catch (error) {
    reply = errorReply(error);
  }
  if (faults.kind === "echo_line" && reply.kind === "stream") reply = { ...reply, chunks: withLine(reply.chunks, faults.at, `${JSON.stringify({ error: tokenEcho(req.headers.authorization) })}\n`) };
  const writeFault = faults.kind === "reset" || faults.kind === "cut" || faults.kind === "slow" || faults.kind === "end" ? faults.kind : null;
  await sendReply(res, reply, { kind: writeFault, at: faults.at }, { slowDelayMs: deps.timing.slowDelayMs, signal: deps.closing });
}

/** The answer of an injected 429/502/503/504, or null when the request is not faulted so. */
async function injectedReply(faults: RequestFaults, timing: FaultTiming, closing: AbortSignal): Promise<Reply | null> {
  const retryAfter = { "Retry-After": String(timing.retryAfterSeconds) };
  switch (faults.kind) {
    case "429":
      return errorReply(new HttpError(429, "rate_limit_exceeded", "Rate limit exceeded: back off and retry", {}, retryAfter));
    case "502":
      return errorReply(new HttpError(502, "bad_gateway", "Upstream connection failure"));
    case "503":
      return errorReply(new HttpError(503, "service_unavailable", "Service temporarily unavailable", {}, retryAfter));
    case "504":
      await sleep(timing.gatewayTimeoutMs, undefined, { signal: closing });
      return errorReply(new HttpError(504, "gateway_timeout", "Upstream did not answer in time"));
    default:
      return null;
  }
}

/** `chunks` with `line` after the first `at` of them (at the end of a shorter stream). */
function* withLine(chunks: Iterable<string>, at: number, line: string): Generator<string> {
  let written = 0;
  for (const chunk of chunks) {
    if (written++ === at) yield line;
    yield chunk;
  }
  if (written <= at) yield line;
}

function errorReply(error: unknown): Reply {
  const known = error instanceof HttpError ? error : new HttpError(500, "internal_error", `Emulator error: ${error instanceof Error ? error.message : String(error)}`);
  return json(known.body(), known.status, known.headers);
}

function send(res: ServerResponse, reply: Reply): Promise<void> {
  return sendReply(res, reply, { kind: null, at: 0 }, { slowDelayMs: 0 });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_MAX_BYTES) throw badRequest(`Request body over ${BODY_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  const body = tryParseJson(Buffer.concat(chunks).toString("utf8"));
  if (body === undefined) throw badRequest("Request body is not valid JSON");
  return body;
}
