import { describe, expect, it } from "vitest";
import type { HttpSourceOptions } from "../../src/pull/index.js";
import { emulator, readAll, source } from "./support.js";

type Options = Omit<HttpSourceOptions, "client" | "spoolDir">;

describe("scorecards are fetched only for runs not in the score cache at their records' version", () => {
  const cases: [string, Options][] = [
    ["owner sft", { auth: "owner", format: "sft" }],
    ["owner rl", { auth: "owner", format: "rl" }],
    ["agent sft", { auth: "agent", format: "sft" }],
    ["owner dpo", { auth: "owner", format: "dpo" }],
    ["agent dpo", { auth: "agent", format: "dpo" }],
  ];
  for (const [name, options] of cases) {
    it(`${name}: a second pull with the first one's cache gives the same lines and gated runs, fetching no known scorecard`, async () => {
      const emu = await emulator({ seed: 31, runs: 120 });
      const first = source(emu, options);
      const firstLines = await readAll(first);
      const a = first.report();
      expect(a.scorecardsCached).toBe(0);
      expect(a.scorecardsFetched).toBe(a.runsScored);

      const second = source(emu, { ...options, scoreCache: first.scoreCacheOut() });
      expect(await readAll(second)).toEqual(firstLines);
      expect(second.gates().entries).toEqual(first.gates().entries);
      expect(second.scoreCacheOut()).toEqual(first.scoreCacheOut());
      const b = second.report();
      expect(b.scorecardsCached + b.scorecardsFetched).toBe(b.runsScored);
      // Only runs whose records did not come (deferred, no RL data) have no version to look up.
      expect(b.scorecardsCached).toBe(options.format === "dpo" ? first.scoreCacheOut().size : a.runsFetched);
      if (options.format === "rl") expect(b.scorecardsFetched).toBe(a.noRlData.length);
      expect(b.requests).toBe(a.requests - b.scorecardsCached);
      if (options.format === "sft") expect(b.scorecardsFetched).toBe(0);
    });
  }

  it("an entry for another version is not used: the run's scorecard is fetched", async () => {
    const emu = await emulator({ seed: 32, runs: 80 });
    const first = source(emu, { auth: "owner", format: "sft" });
    const lines = await readAll(first);
    const gatedId = [...first.gates().runsWith("gated")][0] as string;
    const cache = new Map(first.scoreCacheOut());
    const entry = cache.get(gatedId);
    expect(entry?.gates.some((g) => g[1] === "gated")).toBe(true);
    // What an earlier night saw before this run was rescored into a gated version.
    cache.set(gatedId, { version: (entry?.version ?? 1) - 1, gates: [] });
    const second = source(emu, { auth: "owner", format: "sft", scoreCache: cache });
    expect(await readAll(second)).toEqual(lines);
    expect(second.gates().runsWith("gated").has(gatedId)).toBe(true);
    expect(second.report().scorecardsFetched).toBe(1);
    expect(second.scoreCacheOut().get(gatedId)).toEqual(entry);
  });

  it("a cache entry at the records' version is trusted: its score is not asked again", async () => {
    const emu = await emulator({ seed: 32, runs: 80 });
    const first = source(emu, { auth: "owner", format: "sft" });
    await readAll(first);
    const gatedId = [...first.gates().runsWith("gated")][0] as string;
    const cache = new Map(first.scoreCacheOut());
    cache.set(gatedId, { ...(cache.get(gatedId) as { version: number }), gates: [] });
    const second = source(emu, { auth: "owner", format: "sft", scoreCache: cache });
    await readAll(second);
    expect(second.gates().runsWith("gated").has(gatedId)).toBe(false);
    expect(second.report().scorecardsFetched).toBe(0);
  });

  it("scoreCacheOut() is known only after a first full read", async () => {
    const emu = await emulator({ seed: 33, runs: 10 });
    expect(() => source(emu, { auth: "owner", format: "sft" }).scoreCacheOut()).toThrow(/first full read/);
  });
});
