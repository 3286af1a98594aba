import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import {
  AuthError,
  ConflictError,
  createServiceClient,
  HttpError,
  NetworkError,
  RateLimitError,
  ServerError,
  StreamCutError,
  type ClientEvent,
  type ServiceClientOptions,
} from "../../src/http/index.js";
import { drain, fakeClock, reply, seededRandom, serve, type TestServer } from "./support.js";

const TOKEN = "esk_test_token_0123";
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(url: string, extra: Partial<ServiceClientOptions> = {}) {
  const clock = fakeClock();
  const events: ClientEvent[] = [];
  const c = createServiceClient({ baseUrl: url, auth: "agent", token: TOKEN, clock, retry: { random: seededRandom(1) }, onEvent: (e) => events.push(e), ...extra });
  return { c, clock, events };
}

describe("429 and 503: backoff with Retry-After as a floor", () => {
  it("waits at least 120 s on a 429 with Retry-After: 120 (fake clock), then succeeds", async () => {
    server = await serve((_req, res, n) => (n === 0 ? reply(res, 429, { error: { code: "rate_limit_exceeded", message: "slow down" } }, { "retry-after": "120" }) : reply(res, 200, { ok: true })));
    const { c, clock, events } = client(server.url);
    const started = performance.now();
    expect(await c.getJson("/api/agent/runs")).toEqual({ ok: true });
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(120_000);
    expect(events).toEqual([{ type: "retry", method: "GET", path: "/api/agent/runs", reason: "rate_limited", status: 429, attempt: 1, delayMs: clock.sleeps[0] }]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("honours an HTTP-date Retry-After on a 503", async () => {
    const clock = fakeClock();
    const at = new Date(clock.now() + 90_000).toUTCString();
    server = await serve((_req, res, n) => (n === 0 ? reply(res, 503, { error: { code: "service_unavailable", message: "busy" } }, { "retry-after": at }) : reply(res, 200, [])));
    const c = createServiceClient({ baseUrl: server.url, auth: "agent", token: TOKEN, clock, retry: { random: () => 0 } });
    expect(await c.getJson("/api/agent/runs")).toEqual([]);
    expect(clock.sleeps).toEqual([90_000]);
  });

  it("backs off with full jitter when there is no Retry-After, growing per attempt", async () => {
    server = await serve((_req, res, n) => (n < 5 ? reply(res, 429, { detail: "Too many" }) : reply(res, 200, {})));
    const { c, clock, events } = client(server.url, { retry: { baseDelayMs: 1_000, maxDelayMs: 8_000, random: () => 0.999 } });
    await c.getJson("/x");
    expect(clock.sleeps).toEqual([999, 1_998, 3_996, 7_992, 7_992]);
    expect(events.map((e) => e.type === "retry" && e.attempt)).toEqual([1, 2, 3, 4, 5]);
  });

  it("throws RateLimitError with the Retry-After once the budget is spent, without starting a hopeless wait", async () => {
    server = await serve((_req, res) => reply(res, 429, { error: { code: "rate_limit_exceeded", message: "no" } }, { "retry-after": "600" }));
    const { c, clock } = client(server.url, { retry: { maxElapsedMs: 20 * 60_000 } });
    const error = await c.getJson("/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: "rate_limit_exceeded", attempts: 3, retryAfterMs: 600_000 });
    expect(clock.sleeps).toEqual([600_000, 600_000]);
  });
});

describe("502, 504, 500 and broken connections on GETs: retried within the budget", () => {
  it("retries 502 and 504 and succeeds", async () => {
    server = await serve((_req, res, n) => (n === 0 ? reply(res, 502, "bad gateway") : n === 1 ? reply(res, 504, { error: { code: "gateway_timeout", message: "late" } }) : reply(res, 200, { n })));
    const { c, events } = client(server.url);
    expect(await c.getJson("/x")).toEqual({ n: 2 });
    expect(events.map((e) => e.type === "retry" && [e.status, e.reason])).toEqual([[502, "bad_gateway"], [504, "gateway_timeout"]]);
  });

  it("throws ServerError after maxAttempts", async () => {
    server = await serve((_req, res) => reply(res, 502, { error: { code: "bad_gateway", message: "Upstream connection failure" } }));
    const { c, events } = client(server.url, { retry: { maxAttempts: 4 } });
    const error = await c.getJson("/x", { limit: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, code: "bad_gateway", method: "GET", path: "/x?limit=5", attempts: 4 });
    expect((error as Error).message).toBe("GET /x?limit=5 failed with 502 bad_gateway after 4 attempts (server said: Upstream connection failure)");
    expect(server.seen).toHaveLength(4);
    expect(events).toHaveLength(3);
  });

  it("does not retry 501", async () => {
    server = await serve((_req, res) => reply(res, 501, { error: { code: "not_implemented", message: "no" } }));
    const { c } = client(server.url);
    await expect(c.getJson("/x")).rejects.toThrow(ServerError);
    expect(server.seen).toHaveLength(1);
  });

  it("retries a connection reset before the headers, then throws NetworkError", async () => {
    server = await serve((req) => req.socket.destroy());
    const { c, events } = client(server.url, { retry: { maxAttempts: 3 } });
    const error = await c.getJson("/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ reason: "network", attempts: 3 });
    expect((error as Error).message).toMatch(/^GET \/x failed after 3 attempts: connection failed \(/);
    expect(events.map((e) => e.type === "retry" && e.reason)).toEqual(["network", "network"]);
  });

  it("retries a reset in the middle of a JSON body and a JSON body cut short", async () => {
    server = await serve((_req, res, n) => {
      const body = JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => i) });
      if (n === 0) {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
        res.write(body.slice(0, 20), () => res.socket?.destroy());
      } else if (n === 1) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(body.slice(0, 20));
      } else reply(res, 200, body);
    });
    const { c, events } = client(server.url);
    expect(((await c.getJson("/x")) as { items: number[] }).items).toHaveLength(50);
    expect(events.map((e) => e.type === "retry" && e.reason)).toEqual(["network", "cut"]);
  });

  it("gives up waiting for headers after timeoutMs (real time) and says so", async () => {
    server = await serve(() => undefined);
    const { c } = client(server.url, { timeoutMs: 50, retry: { maxAttempts: 2 } });
    const error = await c.getJson("/x").catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NetworkError", reason: "timeout", attempts: 2 });
    expect((error as Error).message).toContain("no response headers within 50 ms");
  });

  it("reports a refused connection", async () => {
    const gone = await serve(() => undefined);
    await gone.close();
    const { c } = client(gone.url, { retry: { maxAttempts: 1 } });
    await expect(c.getJson("/x")).rejects.toThrow(/GET \/x failed: connection failed \(fetch failed: .*ECONNREFUSED/);
  });
});

describe("final statuses are thrown at once", () => {
  it("401 and 409 make a single request", async () => {
    server = await serve((req, res) =>
      req.url === "/a" ? reply(res, 401, { error: { code: "invalid_api_key", message: "API key has been revoked" } }) : reply(res, 409, { error: { code: "conflict", message: "Run not launched" }, detail: "Run not launched" }),
    );
    const { c } = client(server.url);
    await expect(c.getJson("/a")).rejects.toThrow(AuthError);
    const conflict = await c.getJson("/b").catch((e: unknown) => e);
    expect(conflict).toMatchObject({ name: "ConflictError", reason: "not_launched", detail: "Run not launched" });
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(server.seen).toHaveLength(2);
  });

  it("does not follow a redirect, so the token never goes elsewhere", async () => {
    const other = await serve((_req, res) => reply(res, 200, {}));
    server = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.url}/steal` });
      res.end();
    });
    const { c } = client(server.url);
    const error = await c.getJson("/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 302, code: "http_302" });
    expect(other.seen).toHaveLength(0);
    await other.close();
  });
});

describe("requests", () => {
  it("sends the bearer token and a user agent; POST sends JSON", async () => {
    server = await serve((_req, res) => reply(res, 201, { api_key_id: "k" }));
    const { c } = client(server.url, { userAgent: "nightly/1" });
    expect(await c.request("POST", "/api/api-keys", { body: { name: "n" } })).toEqual({ api_key_id: "k" });
    expect(server.seen[0]).toEqual({ method: "POST", url: "/api/api-keys", authorization: `Bearer ${TOKEN}` });
  });

  it("retries a POST on 429 and 503 only: a 502 may mean it was processed", async () => {
    server = await serve((_req, res, n) => (n === 0 ? reply(res, 429, { detail: "slow" }, { "retry-after": "1" }) : reply(res, 502, "bad")));
    const { c } = client(server.url);
    await expect(c.request("POST", "/api/api-keys", { body: {} })).rejects.toThrow(ServerError);
    expect(server.seen).toHaveLength(2);
  });

  it("rejects bad options with ConfigError naming them", () => {
    const base = { baseUrl: "http://127.0.0.1:1", auth: "agent" as const, token: TOKEN };
    expect(() => createServiceClient({ ...base, concurrency: 0 })).toThrow("`concurrency`");
    expect(() => createServiceClient({ ...base, timeoutMs: 0 })).toThrow("`timeoutMs`");
    expect(() => createServiceClient({ ...base, token: "" })).toThrow("The token from EVAL_API_KEY is empty");
    expect(() => createServiceClient({ ...base, auth: "owner", token: "a b" })).toThrow("EVAL_OWNER_TOKEN");
    expect(() => createServiceClient({ ...base, baseUrl: "http://example.com" })).toThrow(ConfigError);
  });
});

describe("concurrency", () => {
  it("keeps at most `concurrency` requests in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    server = await serve(async (_req, res) => {
      peak = Math.max(peak, ++inFlight);
      await sleep(15);
      inFlight--;
      reply(res, 200, {});
    });
    const { c } = client(server.url, { concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => c.getJson(`/r/${i}`)));
    expect(peak).toBe(3);
    expect(server.seen).toHaveLength(12);
  });

  it("an open stream holds its slot until it is read or abandoned", async () => {
    server = await serve((req, res) => {
      if (req.url === "/stream") {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.write('{"a":1}\n');
        return;
      }
      reply(res, 200, { ok: true });
    });
    const { c } = client(server.url, { concurrency: 1 });
    const lines = c.getNdjson("/stream")[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('{"a":1}');
    const blocked = c.getJson("/other");
    const raced = await Promise.race([blocked, sleep(50).then(() => "still waiting")]);
    expect(raced).toBe("still waiting");
    await lines.return?.();
    expect(await blocked).toEqual({ ok: true });
  });

  it("an abandoned stream lets its connection go, even while the lines read ahead with the first are handed out", async () => {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    server = await serve((_req, res) => {
      res.on("close", closed);
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write('{"a":1}\n{"a":2}\n');
    });
    const { c } = client(server.url);
    const lines = c.getNdjson("/stream")[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('{"a":1}');
    await lines.return?.();
    expect(await Promise.race([gone.then(() => "closed"), sleep(2000).then(() => "still open")])).toBe("closed");
  });
});

describe("getNdjson", () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `{"i":${i}}\n`).join("");

  it("streams complete lines", async () => {
    server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end(body(5));
    });
    const { c } = client(server.url);
    expect((await drain(c.getNdjson("/s"))).items).toEqual(body(5).trim().split("\n"));
  });

  it("re-requests a body cut before its first complete line, as any failed attempt", async () => {
    server = await serve((_req, res, n) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end(n === 0 ? '{"i":0' : body(3));
    });
    const { c, events } = client(server.url);
    expect((await drain(c.getNdjson("/s"))).items).toHaveLength(3);
    expect(events.map((e) => e.type === "retry" && e.reason)).toEqual(["cut"]);
  });

  it("throws StreamCutError after the complete lines when a body is cut or reset later, never yielding the fragment", async () => {
    server = await serve((req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      const text = body(4);
      if (req.url === "/cut") res.end(text.slice(0, -4));
      else res.write(text.slice(0, -4), () => res.socket?.destroy());
    });
    const { c, events } = client(server.url);
    for (const [path, reason] of [["/cut", "cut"], ["/reset", "reset"]] as const) {
      const got = await drain(c.getNdjson(path));
      expect(got.items).toEqual(['{"i":0}', '{"i":1}', '{"i":2}']);
      expect(got.error).toBeInstanceOf(StreamCutError);
      expect(got.error).toMatchObject({ reason, linesDelivered: 3, method: "GET", path });
      expect(events.at(-1)).toEqual({ type: "stream_cut", method: "GET", path, reason, linesDelivered: 3 });
    }
    expect(server.seen).toHaveLength(2);
  });
});
