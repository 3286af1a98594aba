import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { ShardRotation } from "../../src/output/shard-rotation.js";

const place = (limits: { maxRows: number; maxBytes: number }, sizes: readonly number[]) => {
  const rotation = new ShardRotation(limits);
  return sizes.map((size) => rotation.place(size));
};

describe("ShardRotation", () => {
  it("starts a new shard when the next row would pass maxRows", () => {
    expect(place({ maxRows: 2, maxBytes: Infinity }, [1, 1, 1, 1, 1])).toEqual([0, 0, 1, 1, 2]);
  });

  it("starts a new shard when the next row would pass maxBytes", () => {
    expect(place({ maxRows: Infinity, maxBytes: 10 }, [4, 4, 2, 1, 9])).toEqual([0, 0, 0, 1, 1]);
  });

  it("gives a row larger than maxBytes a shard alone", () => {
    expect(place({ maxRows: Infinity, maxBytes: 10 }, [3, 50, 3])).toEqual([0, 1, 2]);
  });

  it("rejects limits that are not integers from 1 and up", () => {
    expect(() => new ShardRotation({ maxRows: 0, maxBytes: 1 })).toThrow(ConfigError);
    expect(() => new ShardRotation({ maxRows: 1, maxBytes: 1.5 })).toThrow(/maxBytes/);
  });
});
