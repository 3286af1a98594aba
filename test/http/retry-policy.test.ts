import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { mayRetry, resolveRetryPolicy, retryDelay, retryReasonOf } from "../../src/http/index.js";
import { seededRandom } from "./support.js";

describe("full jitter", () => {
  it("draws each delay from 0 to min(cap, base * 2^(attempt-1))", () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 5_000, maxAttempts: 100, maxElapsedMs: 1e12, random: seededRandom(1) });
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(5_000, 100 * 2 ** (attempt - 1));
      const draws = Array.from({ length: 300 }, () => retryDelay(policy, { attempt, elapsedMs: 0 }) ?? -1);
      expect(Math.min(...draws), `attempt ${attempt}`).toBeGreaterThanOrEqual(0);
      expect(Math.max(...draws), `attempt ${attempt}`).toBeLessThanOrEqual(ceiling);
      // Full jitter, not "equal jitter": the low half of the range is used too.
      expect(draws.filter((d) => d < ceiling / 2).length).toBeGreaterThan(90);
      expect(Math.max(...draws)).toBeGreaterThan(ceiling * 0.9);
    }
  });

  it("reaches the ends of the range with the extreme draws", () => {
    const low = resolveRetryPolicy({ baseDelayMs: 200, random: () => 0 });
    const high = resolveRetryPolicy({ baseDelayMs: 200, maxDelayMs: 1_000, random: () => 0.999_999_9 });
    expect(retryDelay(low, { attempt: 3, elapsedMs: 0 })).toBe(0);
    expect(retryDelay(high, { attempt: 1, elapsedMs: 0 })).toBe(199);
    expect(retryDelay(high, { attempt: 3, elapsedMs: 0 })).toBe(799);
    expect(retryDelay(high, { attempt: 7, elapsedMs: 0 })).toBe(999);
  });

  it("is reproducible with a seeded random", () => {
    const a = resolveRetryPolicy({ random: seededRandom(42) });
    const b = resolveRetryPolicy({ random: seededRandom(42) });
    const seq = (p: typeof a) => [1, 2, 3, 4, 5].map((attempt) => retryDelay(p, { attempt, elapsedMs: 0 }));
    expect(seq(a)).toEqual(seq(b));
  });
});

describe("Retry-After is a floor", () => {
  it("waits at least Retry-After, even far above the cap", () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 500, maxDelayMs: 30_000, random: () => 0.5 });
    expect(retryDelay(policy, { attempt: 1, elapsedMs: 0, retryAfterMs: 120_000 })).toBe(120_000);
    expect(retryDelay(policy, { attempt: 7, elapsedMs: 0, retryAfterMs: 1_000 })).toBe(15_000);
  });

  it("keeps the jittered delay when it is longer than Retry-After", () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 10_000, random: () => 0.9 });
    expect(retryDelay(policy, { attempt: 1, elapsedMs: 0, retryAfterMs: 1_000 })).toBe(9_000);
  });

  it("never goes under Retry-After whatever the draw", () => {
    const policy = resolveRetryPolicy({ random: seededRandom(7), maxAttempts: 50, maxElapsedMs: 1e12 });
    for (let attempt = 1; attempt < 50; attempt++) {
      expect(retryDelay(policy, { attempt, elapsedMs: 0, retryAfterMs: 2_000 })).toBeGreaterThanOrEqual(2_000);
    }
  });
});

describe("budgets", () => {
  it("gives up after maxAttempts attempts in all", () => {
    const policy = resolveRetryPolicy({ maxAttempts: 3, random: () => 0 });
    expect(retryDelay(policy, { attempt: 1, elapsedMs: 0 })).toBe(0);
    expect(retryDelay(policy, { attempt: 2, elapsedMs: 0 })).toBe(0);
    expect(retryDelay(policy, { attempt: 3, elapsedMs: 0 })).toBeNull();
    expect(retryDelay(resolveRetryPolicy({ maxAttempts: 1 }), { attempt: 1, elapsedMs: 0 })).toBeNull();
  });

  it("does not start a wait that would end past maxElapsedMs", () => {
    const policy = resolveRetryPolicy({ maxElapsedMs: 60_000, random: () => 0 });
    expect(retryDelay(policy, { attempt: 1, elapsedMs: 0, retryAfterMs: 60_000 })).toBe(60_000);
    expect(retryDelay(policy, { attempt: 1, elapsedMs: 1, retryAfterMs: 60_000 })).toBeNull();
    expect(retryDelay(policy, { attempt: 1, elapsedMs: 0, retryAfterMs: 120_000 })).toBeNull();
    expect(retryDelay(policy, { attempt: 2, elapsedMs: 60_001 })).toBeNull();
  });

  it("defaults leave room for a two-minute Retry-After", () => {
    expect(retryDelay(resolveRetryPolicy(), { attempt: 1, elapsedMs: 0, retryAfterMs: 120_000 })).toBeGreaterThanOrEqual(120_000);
  });
});

describe("what is retried", () => {
  it("maps the retryable statuses and leaves the others final", () => {
    expect([429, 503, 502, 504, 500].map(retryReasonOf)).toEqual(["rate_limited", "unavailable", "bad_gateway", "gateway_timeout", "server_error"]);
    for (const status of [400, 401, 403, 404, 409, 422, 501, 505]) expect(retryReasonOf(status), String(status)).toBeNull();
  });

  it("retries only refusals for POST, whose 502/504/reset may have been processed", () => {
    expect(mayRetry("GET", "bad_gateway")).toBe(true);
    expect(mayRetry("delete", "network")).toBe(true);
    expect(mayRetry("POST", "rate_limited")).toBe(true);
    expect(mayRetry("POST", "unavailable")).toBe(true);
    for (const reason of ["bad_gateway", "gateway_timeout", "server_error", "network", "timeout", "cut"] as const) expect(mayRetry("POST", reason)).toBe(false);
  });
});

describe("resolveRetryPolicy", () => {
  it("rejects bad values with ConfigError naming the field and value", () => {
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow(ConfigError);
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow("`retry.maxAttempts`");
    expect(() => resolveRetryPolicy({ baseDelayMs: -1 })).toThrow("got -1");
    expect(() => resolveRetryPolicy({ maxDelayMs: 1.5 })).toThrow("retry.maxDelayMs");
  });
});
