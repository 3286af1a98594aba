import { describe, expect, it } from "vitest";
import { inOrder } from "../../src/pull/in-order.js";

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("inOrder: a bounded window of work, results taken in the items' order", () => {
  it("takes results in order whatever order they finish in, with at most `width` started and untaken", async () => {
    const items = Array.from({ length: 40 }, (_, i) => i);
    let open = 0;
    let most = 0;
    const taken: number[] = [];
    await inOrder(
      items,
      async (i) => {
        open++;
        most = Math.max(most, open);
        await later((i * 7) % 5);
        return i * 2;
      },
      (result, item) => {
        open--;
        expect(result).toBe(item * 2);
        taken.push(item);
      },
      3,
    );
    expect(taken).toEqual(items);
    expect(most).toBe(3);
  });

  it("throws the first failure in order and takes nothing after it", async () => {
    const taken: number[] = [];
    const run = inOrder(
      [0, 1, 2, 3, 4],
      async (i) => {
        await later(i === 2 ? 5 : 1);
        if (i === 2) throw new Error("run 2 failed");
        return i;
      },
      (r) => void taken.push(r),
      2,
    );
    await expect(run).rejects.toThrow("run 2 failed");
    expect(taken).toEqual([0, 1]);
  });
});
