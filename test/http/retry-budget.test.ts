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

describe("RetryBudget: waits are charged as spans of time, each span once", () => {
  it("four waits of 10 s side by side spend 10 s; one after them spends its own", () => {
    const clock = fakeClock();
    const budget = new RetryBudget(60_000, clock);
    for (let i = 0; i < 4; i++) budget.chargeAhead(10_000);
    expect(budget.spentMs).toBe(10_000);
    clock.advance(15_000);
    budget.chargeEnded(3_000);
    expect(budget.spentMs).toBe(13_000);
    // A stall that began during the first waits is charged only for the part they did not cover.
    budget.chargeEnded(8_000);
    expect(budget.spentMs).toBe(15_000);
    expect(budget.leftMs()).toBe(45_000);
  });

  it("a wait on the network is cut to what is left, but not under its floor", () => {
    const clock = fakeClock();
    const budget = new RetryBudget(30_000, clock);
    expect(budget.capped(120_000, 10_000)).toBe(30_000);
    budget.chargeAhead(25_000);
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

  it("requests of one client, and clients of one night, share one budget", async () => {
    server = await serve((_req, res) => reply(res, 503, { error: { code: "unavailable", message: "later" } }, { "retry-after": "10" }));
    const clock = fakeClock();
    const budget = new RetryBudget(45_000, clock);
    const make = () => createServiceClient({ baseUrl: server!.url, auth: "agent", token: TOKEN, clock, budget, retry: { maxAttempts: 1000 } });
    const errors = await Promise.all([make().getJson("/a"), make().getJson("/b")].map((p) => p.catch((e: unknown) => e)));
    for (const error of errors) expect(error).toBeInstanceOf(RetryBudgetError);
    // The fake clock runs the two clients' waits one after the other: 4 waits of 10 s fit in 45 s in all.
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(45_000);
    expect(budget.isSpent() || budget.leftMs() < 10_000).toBe(true);
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
    budget.chargeAhead(1_000);
    const client = createServiceClient({ baseUrl: server.url, auth: "agent", token: TOKEN, clock, budget });
    const { items, error } = await drain(completeNdjson(client, "/stream"));
    expect(items).toEqual(['{"a":1}']);
    expect(error).toBeInstanceOf(RetryBudgetError);
    expect((error as Error).cause).toBeInstanceOf(StreamCutError);
    expect(n).toBe(1);
  });
});
