import { describe, expect, it } from "vitest";
import type { ExportClient } from "../../src/http/index.js";
import { PullTally } from "../../src/pull/pull-report.js";
import { pullRoutes } from "../../src/pull/routes.js";
import { ScoreTable } from "../../src/pull/score-table.js";
import { scoresOf } from "../../src/pull/scorecards.js";

// More runs than the scores' window (1,024): in list order, run 0 waiting out a retry let nothing past
// run 1,024 start until it was back (issue 40).
const RUNS = 1100;

describe("scoresOf: scorecards taken as they complete, handed on in list order", () => {
  it("one scorecard deep in its retries holds up no other; cache and takes still in list order", async () => {
    const requested: string[] = [];
    let allRequested: () => void = () => {};
    const everyOther = new Promise<void>((resolve) => (allRequested = resolve));
    const client = {
      auth: "owner",
      getJson: async (path: string) => {
        requested.push(path);
        if (requested.length === RUNS) allRequested();
        const id = Number(decodeURIComponent(path.split("/").at(-2) ?? ""));
        // Run 0 answers once every other run was requested, or after 10 s if they never are (generous: a
        // loaded machine still requests 1,100 runs well within it; the old code always waited it out).
        if (id === 0) await Promise.race([everyOther, new Promise((r) => setTimeout(r, 10_000))]);
        else await new Promise((r) => setTimeout(r, id % 7));
        return { versions: [1], scorecards: [{ run_id: String(id), agent_key_id: "key_a", participation_gated: false, traits: { per_trait: { a: { mean: id } } } }] };
      },
    } as unknown as ExportClient;
    const runs = Array.from({ length: RUNS }, (_, i) => String(i));
    const out = new ScoreTable();
    const taken: string[] = [];
    const composites: number[] = [];
    const started = Date.now();
    await scoresOf(
      client,
      pullRoutes("owner", "sft"),
      runs,
      (run) => run,
      () => 1,
      { cache: undefined, out, book: null, gates: [] },
      new PullTally({ source: "x", auth: "owner", format: "sft", partition: null }, undefined),
      (score, run) => {
        taken.push(run);
        composites.push(score.composite ?? Number.NaN);
      },
    );
    const zeroAnsweredAfter = Date.now() - started;
    expect(requested).toHaveLength(RUNS);
    expect(zeroAnsweredAfter).toBeLessThan(10_000);
    expect(taken).toEqual(runs);
    expect(composites).toEqual(runs.map(Number));
    expect([...out.keys()]).toEqual(runs);
    expect(out.get("0")).toEqual({ version: 1, gates: [], composite: 0 });
  });
});
