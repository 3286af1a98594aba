import type { ListedRun } from "./list-runs.js";
import { fetchRecords, type FetchRecordsContext } from "./fetch-records.js";
import { noteVersion, scoresOf, type Scoring } from "./scorecards.js";
import { Staging } from "./staging.js";

/**
 * SFT or RL records of the scored runs in `share`, as lines in the service's list order (a run's
 * records in the order they came), then any `partial_stream` lines. Adds the gated runs to `gated`.
 * Records are read first, so each run's `scorecard_version` is known and only scorecards of runs new
 * or rescored since `scoring.cache` are requested; nothing is yielded before the scores are in.
 * Sets `found.settled` when every score is one the cache left in `scoring.out` answers for the same records.
 */
export async function* pullRecords(ctx: FetchRecordsContext, share: readonly ListedRun[], found: { readonly gated: Set<string>; settled: boolean }, scoring: Scoring, spoolDir: string): AsyncGenerator<string | Buffer> {
  const { gated } = found;
  const scored = share.filter((run) => run.scored);
  const staging = await Staging.open(spoolDir);
  try {
    const others: string[] = [];
    const versions = new Map<string, number>();
    await fetchRecords(
      ctx,
      scored,
      async (v) => {
        noteVersion(versions, v.run.runId, v.version);
        await staging.add(v.run.runId, v.line);
      },
      (line) => others.push(line),
    );

    const scores = await scoresOf(ctx.client, ctx.routes, scored.map((r) => r.runId), versions, scoring, ctx.tally);
    for (const [runId, score] of scores) if (score.gated) gated.add(runId);
    // A rerun of the same records takes each score from the cache only for a known version it holds.
    found.settled = scored.every((run) => {
      const version = versions.get(run.runId);
      return version !== undefined && scoring.out.get(run.runId)?.version === version;
    });
    ctx.tally.r.gated = gated.size;
    ctx.tally.emit({ type: "scorecards", runs: scores.size, gated: gated.size });

    for (const run of scored) {
      const records = staging.count(run.runId);
      yield* staging.bytes(run.runId);
      ctx.tally.r.records += records;
      if (records > 0) ctx.tally.r.runsFetched++;
    }
    yield* others;
  } finally {
    await staging.dispose();
  }
}
