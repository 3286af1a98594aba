import type { ListedRun } from "./list-runs.js";
import { fetchRecords, type FetchRecordsContext } from "./fetch-records.js";
import { fetchScores } from "./scorecards.js";
import { Staging } from "./staging.js";

/**
 * SFT or RL records of the scored runs in `share`, as lines in the service's list order (a run's
 * records in the order they came), then any `partial_stream` lines. Adds the gated runs to `gated`.
 */
export async function* pullRecords(ctx: FetchRecordsContext, share: readonly ListedRun[], gated: Set<string>, spoolDir: string): AsyncGenerator<string> {
  const scored = share.filter((run) => run.scored);
  const scores = await fetchScores(ctx.client, ctx.routes, scored.map((r) => r.runId), ctx.tally);
  for (const [runId, score] of scores) if (score.gated) gated.add(runId);
  ctx.tally.r.gated = gated.size;
  ctx.tally.emit({ type: "scorecards", runs: scores.size, gated: gated.size });

  const staging = await Staging.open(spoolDir);
  try {
    const others: string[] = [];
    await fetchRecords(ctx, scored, async (v) => void (await staging.add(v.run.runId, v.key, v.line)), (line) => others.push(line));
    for (const run of scored) {
      let records = 0;
      for await (const line of staging.lines(run.runId)) {
        records++;
        yield line;
      }
      ctx.tally.r.records += records;
      if (records > 0) ctx.tally.r.runsFetched++;
    }
    yield* others;
  } finally {
    await staging.dispose();
  }
}
