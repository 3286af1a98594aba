import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { limitConcurrency } from "../../src/http/index.js";

describe("limitConcurrency", () => {
  it("never has more than `concurrency` tasks running, and runs them all", async () => {
    const limit = limitConcurrency(3);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limit.run(async () => {
          peak = Math.max(peak, ++running);
          await sleep(i % 3);
          running--;
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(peak).toBe(3);
    expect([limit.activeCount, limit.pendingCount]).toEqual([0, 0]);
  });

  it("serves waiters first come first served, and a release is idempotent", async () => {
    const limit = limitConcurrency(1);
    const first = await limit.acquire();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) => limit.acquire().then((release) => (order.push(n), release)));
    expect(limit.pendingCount).toBe(3);
    first();
    first();
    const r1 = await waiters[0];
    expect([limit.activeCount, limit.pendingCount]).toEqual([1, 2]);
    r1?.();
    (await waiters[1])?.();
    (await waiters[2])?.();
    expect(order).toEqual([1, 2, 3]);
    expect(limit.activeCount).toBe(0);
  });

  it("frees the slot when the task throws", async () => {
    const limit = limitConcurrency(1);
    await expect(limit.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await limit.run(async () => "next")).toBe("next");
  });

  it("names a bad concurrency", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => limitConcurrency(bad)).toThrow(ConfigError);
    expect(() => limitConcurrency(0)).toThrow("Expected `concurrency` to be a whole number from 1 up, got 0");
  });
});
