import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/core/sha256-hex.js";
import { checkBuckets, setHash, shardPath } from "../../src/dataset/bucket.js";
import { shareOf } from "../../src/pull/partition.js";
import { ConfigError } from "../../src/core/errors.js";

describe("shareOf: a key's bucket", () => {
  it("is sha256(key) as a big-endian integer modulo the bucket count", () => {
    // sha256("abc") = ba7816bf...15ad; 0xba7816bf...15ad mod 16 is its last hex digit.
    expect(shareOf("abc", 16)).toBe(0xd);
    expect(shareOf("abc", 1)).toBe(0);
    const digest = BigInt("0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(shareOf("abc", 7)).toBe(Number(digest % 7n));
  });

  it("spreads keys over every bucket", () => {
    const seen = new Set(Array.from({ length: 400 }, (_, i) => shareOf(JSON.stringify([`run-${i}`]), 16)));
    expect(seen.size).toBe(16);
  });
});

describe("shardPath", () => {
  it("uses the Hugging Face layout with the fixed total", () => {
    expect(shardPath(3, 16, ".parquet")).toBe("data/train-00003-of-00016.parquet");
  });
});

describe("checkBuckets", () => {
  it("takes integers from 1 to 99999 and names a bad value", () => {
    expect(checkBuckets(1)).toBe(1);
    expect(checkBuckets(99_999)).toBe(99_999);
    for (const bad of [0, -1, 1.5, 100_000, Number.NaN]) expect(() => checkBuckets(bad)).toThrow(ConfigError);
    expect(() => checkBuckets(0)).toThrow(/got 0/);
  });
});

describe("setHash", () => {
  it("changes with a record's content and with its key", () => {
    const base = setHash([["a", sha256Hex("{}")], ["b", sha256Hex('{"x":1}')]]);
    expect(setHash([["a", sha256Hex("{}")], ["b", sha256Hex('{"x":1}')]])).toBe(base);
    expect(setHash([["a", sha256Hex("{}")], ["b", sha256Hex('{"x":2}')]])).not.toBe(base);
    expect(setHash([["a", sha256Hex("{}")], ["c", sha256Hex('{"x":1}')]])).not.toBe(base);
  });
});
