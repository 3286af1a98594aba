import { describe, expect, it } from "vitest";
import { asCompleted } from "../../src/pull/as-completed.js";

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("asCompleted: results taken as they come, a window at a time", () => {
  it("an item that waits holds up no other: the rest are started and taken meanwhile", async () => {
    const taken: number[] = [];
    let started = 0;
    // Item 0 waits 200 ms (a retry); a window of 2 still gets every other item through first.
    await asCompleted(
      [0, 1, 2, 3, 4, 5],
      (item) => (started++, later(item, item === 0 ? 200 : 5)),
      (result) => void taken.push(result),
      2,
    );
    expect(started).toBe(6);
    expect(taken).toEqual([1, 2, 3, 4, 5, 0]);
  });

  it("takes run one at a time, even when they wait", async () => {
    let inside = 0;
    let most = 0;
    await asCompleted(
      Array.from({ length: 20 }, (_, i) => i),
      (item) => later(item, 1),
      async () => {
        most = Math.max(most, ++inside);
        await later(0, 2);
        inside--;
      },
      8,
    );
    expect(most).toBe(1);
  });

  it("the first failure is thrown once the started work has settled; nothing is taken after it", async () => {
    const taken: number[] = [];
    const settled: number[] = [];
    const error = await asCompleted(
      [0, 1, 2, 3, 4, 5, 6, 7],
      async (item) => {
        await later(0, item === 1 ? 5 : 30);
        settled.push(item);
        if (item === 1) throw new Error("run 1 failed");
        return item;
      },
      (result) => void taken.push(result),
      3,
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe("run 1 failed");
    expect(taken).toEqual([]);
    // Items 0 and 2 were started with 1 and finished before the call returned; nothing after them started.
    expect(settled.sort()).toEqual([0, 1, 2]);
  });
});
