import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { planPairs, recordSlices, scenarioShareOf, shareOf, type PairCandidate } from "../../src/pull/index.js";

describe("recordSlices: the raw text of each record", () => {
  it("keeps each element's bytes as sent: spacing, escapes, key order, number spelling", () => {
    const a = '{ "b" : 1.50, "a":"x\\"]}" }';
    const b = '{"n":[1,{"m":"}"}],"e":1e3}';
    const text = `{"total":2, "records" : [ ${a} ,\n${b}], "tail": {"records": []}}`;
    expect(recordSlices(text)).toEqual([a, b]);
  });
  it("a string ending in escaped backslashes ends at its quote; an escaped quote does not end it", () => {
    const a = String.raw`{"p":"C:\\","q":"say \"]}\" \\\"x"}`;
    const b = String.raw`["\\\\",{"r":"]"}]`;
    const text = `{"records":[${a},${b}]}`;
    expect(recordSlices(text)).toEqual([a, b]);
    expect(JSON.parse(`[${recordSlices(text).join(",")}]`)).toEqual(JSON.parse(text).records);
  });
  it("a record nested past the key scan's 64 levels is still sliced (the body's text is JSON.parse's to judge)", () => {
    const deep = `${'{"a":['.repeat(100)}1${"]}".repeat(100)}`;
    const b = '{"run_id":"r\\u0041"}';
    expect(recordSlices(`{"records":[${deep},${b}]}`)).toEqual([deep, b]);
  });
  it("empty arrays and a missing field", () => {
    expect(recordSlices('{"records":[]}')).toEqual([]);
    expect(() => recordSlices('{"other":[]}')).toThrow(SyntaxError);
    expect(() => recordSlices('{"records":[')).toThrow(SyntaxError);
  });
});

describe("shareOf", () => {
  it("spreads identifiers over the shares", () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[shareOf(`run-${i}`, 4)]! += 1;
    for (const c of counts) expect(c).toBeGreaterThan(850);
  });
  it("is sha256 of the id, read as a big-endian integer, mod the count (a part's runs must not move)", () => {
    const byFormula = (id: string, count: number) => Number(BigInt(`0x${createHash("sha256").update(id, "utf8").digest("hex")}`) % BigInt(count));
    for (const count of [2, 3, 4, 7, 500, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER]) {
      for (let i = 0; i < 200; i++) expect(shareOf(`run-${i}-ü`, count)).toBe(byFormula(`run-${i}-ü`, count));
    }
  });
  it("a scenario's share is HMAC-SHA256 under the partition key, read the same way", () => {
    const byFormula = (id: string, count: number) => Number(BigInt(`0x${createHmac("sha256", "evalshard-partition-1").update(id, "utf8").digest("hex")}`) % BigInt(count));
    for (const count of [2, 4, 9, Number.MAX_SAFE_INTEGER]) {
      for (let i = 0; i < 200; i++) expect(scenarioShareOf(`scn-${i}`, count)).toBe(byFormula(`scn-${i}`, count));
    }
  });
});

describe("planPairs", () => {
  const c = (runId: string, campaignId: string, composite: number, order: number): PairCandidate => ({ runId, campaignId, composite, order });
  const runs = [c("a", "s1", 3, 0), c("b", "s1", 4.5, 1), c("x", "s2", 2, 2), c("c", "s1", 3, 3), c("d", "s1", 1, 4), c("y", "s2", 2.5, 5)];
  const ids = (pairs: ReturnType<typeof planPairs>) => pairs.map((p) => `${p.runIdA}-${p.runIdB}`);

  it("best-worst: highest against lowest, list order breaking composite ties", () => {
    expect(ids(planPairs(runs, { strategy: "best-worst" }))).toEqual(["b-d", "y-x"]);
  });
  it("adjacent: neighbours in rank order", () => {
    expect(ids(planPairs(runs, { strategy: "adjacent" }))).toEqual(["b-a", "a-c", "c-d", "y-x"]);
    expect(ids(planPairs(runs, { strategy: "adjacent", maxPairsPerScenario: 1 }))).toEqual(["b-a", "y-x"]);
  });
  it("all: every pair in rank order, capped per scenario", () => {
    expect(ids(planPairs(runs, { strategy: "all" }))).toEqual(["b-a", "b-c", "b-d", "a-c", "a-d", "c-d", "y-x"]);
    expect(ids(planPairs(runs, { strategy: "all", maxPairsPerScenario: 2 }))).toEqual(["b-a", "b-c", "y-x"]);
  });
  it("does not depend on the order candidates are given in", () => {
    expect(planPairs([...runs].reverse(), { strategy: "all" })).toEqual(planPairs(runs, { strategy: "all" }));
  });
});
