import { afterEach, describe, expect, it } from "vitest";
import { completeNdjson, createServiceClient, RetryBudget, RetryBudgetError, StreamCutError, systemClock } from "../../src/http/index.js";
import { drain, fakeClock, reply, serve, type TestServer } from "./support.js";

// One budget (spec'd in the README: 15 minutes by default) bounds all the waiting a night does on failures:
// backoff and Retry-After waits, stalled bodies, restarts of cut streams, across every request and client.

const TOKEN = "esk_retry_budget_test_token";
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("RetryBudget: what the night loses to failures, each span of time once", () => {
  it("waits while a request is in flight cost nothing; waits with none in flight are charged once; a stall for its own span", () => {
    const clock = fakeClock();
    const budget = new RetryBudget(60_000, clock);
    const busy = budget.busy();
    const first = budget.wait();
    const second = budget.wait();
    clock.advance(10_000);
    expect(budget.spentMs).toBe(0);
    busy();
    busy();
    clock.advance(5_000);
    // Two waits side by side, nothing in flight: 5 s, not 10.
    expect(budget.spentMs).toBe(5_000);
    first();
    second();
    clock.advance(5_000);
    expect(budget.spentMs).toBe(5_000);
    // A stall of 8 s that ended now: its first 3 s were charged already.
    budget.chargeEnded(8_000);
    expect(budget.spentMs).toBe(10_000);
    expect(budget.leftMs()).toBe(50_000);
  });

  it("a wait on the network is cut to what is left, but not under its floor", () => {
    const clock = fakeClock();
    const budget = new RetryBudget(30_000, clock);
    expect(budget.capped(120_000, 10_000)).toBe(30_000);
    budget.chargeEnded(25_000);
    expect(budget.capped(120_000, 10_000)).toBe(10_000);
    expect(budget.capped(150, 10_000)).toBe(150);
  });

  it("rejects a budget that is not whole milliseconds, naming it", () => {
    expect(() => new RetryBudget(-1)).toThrow(/retry budget in whole milliseconds from 0 up, got -1/);
  });
});

describe("a client's retries draw from the budget, and a spent budget makes a failure final", () => {
  it("429s with Retry-After: 30 s: waits until the budget is spent, then RetryBudgetError naming it", async () => {
    server = await serve((_req, res) => reply(res, 429, { error: { code: "rate_limit_exceeded", message: "slow down" } }, { "retry-after": "30" }));
    const clock = fakeClock();
    const budget = new RetryBudget(100_000, clock);
    const client = createServiceClient({ baseUrl: server.url, auth: "agent", token: TOKEN, clock, budget, retry: { maxAttempts: 1000 } });
    const error = await client.getJson("/api/agent/runs").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryBudgetError);
    expect((error as Error).message).toMatch(/GET \/api\/agent\/runs .*not retried: the retry budget \(100 s of waiting on failures\) is spent/);
    // Three waits of 30 s fit; a fourth would end past the budget and is never started.
    expect(clock.sleeps).toEqual([30_000, 30_000, 30_000]);
    expect(server.seen).toHaveLength(4);
  });

  it("clients of one night share one budget: what the first spent, the second has not", async () => {
    server = await serve((_req, res) => reply(res, 503, { error: { code: "unavailable", message: "later" } }, { "retry-after": "10" }));
    const clock = fakeClock();
    const budget = new RetryBudget(45_000, clock);
    const make = () => createServiceClient({ baseUrl: server!.url, auth: "agent", token: TOKEN, clock, budget, retry: { maxAttempts: 1000 } });
    const first = await make().getJson("/a").catch((e: unknown) => e);
    expect(first).toBeInstanceOf(RetryBudgetError);
    expect(clock.sleeps).toEqual([10_000, 10_000, 10_000, 10_000]);
    // 5 s left, less than the server's Retry-After: the second client's first failure is final.
    const second = await make().getJson("/b").catch((e: unknown) => e);
    expect(second).toBeInstanceOf(RetryBudgetError);
    expect(clock.sleeps).toHaveLength(4);
    expect(server.seen.filter((r) => r.url === "/b")).toHaveLength(1);
  });

  it("a jittered backoff is cut to what is left of the budget", async () => {
    server = await serve((_req, res) => reply(res, 502, "bad gateway"));
    const clock = fakeClock();
    const budget = new RetryBudget(5_000, clock);
    const client = createServiceClient({ baseUrl: server.url, auth: "agent", token: TOKEN, clock, budget, retry: { maxAttempts: 1000, baseDelayMs: 4_000, random: () => 0.99 } });
    const error = await client.getJson("/a").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryBudgetError);
    expect(clock.sleeps[0]).toBe(3_960);
    expect(clock.sleeps[1]).toBe(1_040);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(5_000);
  });

  it("a body that stalls after the headers, for ever: the stalls spend the budget and the call fails within it", async () => {
    server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"runs": [');
    });
    const budget = new RetryBudget(1_000, systemClock);
    const client = createServiceClient({ baseUrl: server.url, auth: "agent", token: TOKEN, budget, idleTimeoutMs: 200, retry: { maxAttempts: 1000, baseDelayMs: 10 } });
    const started = performance.now();
    const error = await client.getJson("/api/agent/runs").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryBudgetError);
    expect((error as Error).message).toMatch(/the body stalled: no bytes for 200 ms; not retried: the retry budget \(1 s/);
    // Without the budget, 1000 attempts of 200 ms each: over three minutes.
    expect(server.seen.length).toBeLessThanOrEqual(6);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("a stream cut after some lines, with the budget spent, is final: completeNdjson does not restart it", async () => {
    let n = 0;
    server = await serve((_req, res) => {
      n++;
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      // One whole line, then half of the next, and the connection is gone.
      res.write('{"a":1}\n{"a":');
      setTimeout(() => res.destroy(), 20);
    });
    const clock = fakeClock();
    const budget = new RetryBudget(1_000, clock);
    budget.chargeEnded(1_000);
    const client = createServiceClient({ baseUrl: server.url, auth: "agent", token: TOKEN, clock, budget });
    const { items, error } = await drain(completeNdjson(client, "/stream"));
    expect(items).toEqual(['{"a":1}']);
    expect(error).toBeInstanceOf(RetryBudgetError);
    expect((error as Error).cause).toBeInstanceOf(StreamCutError);
    expect(n).toBe(1);
  });
});
