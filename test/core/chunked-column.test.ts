import { describe, expect, it } from "vitest";
import { ChunkedColumn } from "../../src/core/chunked-column.js";

describe("ChunkedColumn: numbers by index, grown a chunk at a time", () => {
  it("reads back what was set, across chunks, and 0 where nothing was", () => {
    const column = new ChunkedColumn();
    const at = [0, 1, 8191, 8192, 8193, 50_000, 123_457];
    for (const i of at) column.set(i, i + 0.5);
    for (const i of at) expect(column.get(i)).toBe(i + 0.5);
    expect(column.get(2)).toBe(0);
    expect(column.get(40_000)).toBe(0);
    // Far past the last chunk: nothing was allocated there.
    expect(column.get(10_000_000)).toBe(0);
  });

  it("holds the chunks reached and no more: memory follows the largest index, never in factor-sized steps", () => {
    const column = new ChunkedColumn();
    expect(column.bytesHeld).toBe(0);
    column.set(0, 1);
    const chunk = column.bytesHeld;
    expect(chunk).toBeGreaterThan(0);
    for (let i = 0; i < 100_000; i++) column.set(i, i);
    // 100,000 eight-byte entries in whole chunks: at most one chunk more than the entries take.
    expect(column.bytesHeld).toBeGreaterThanOrEqual(800_000);
    expect(column.bytesHeld).toBeLessThan(800_000 + chunk);
    expect(column.bytesHeld % chunk).toBe(0);
  });

  it("copies are independent of the original", () => {
    const column = new ChunkedColumn();
    for (let i = 0; i < 20_000; i++) column.set(i, i);
    const copy = column.copy();
    column.set(5, -1);
    copy.set(15_000, -2);
    expect(copy.get(5)).toBe(5);
    expect(column.get(15_000)).toBe(15_000);
    expect(copy.bytesHeld).toBe(column.bytesHeld);
  });
});
