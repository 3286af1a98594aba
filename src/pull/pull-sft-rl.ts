import { fetchRecords, type FetchRecordsContext } from "./fetch-records.js";
import type { RunTable } from "./run-table.js";
import { knownVersion, noteVersion, scoresOf, type Scoring } from "./scorecards.js";
import { ReadyQueue } from "./ready-queue.js";
import { Staging } from "./staging.js";

/**
 * SFT or RL records of the scored runs of `share` (numbers in `runs`, in list order), as lines in the
 * service's list order (a run's records in the order they came), then any `partial_stream` lines. Adds
 * each run's cards that are not open to `scoring.gates`. A run's records are read before its scorecard, so its `scorecard_version` is known and only
 * scorecards of runs new or rescored since `scoring.cache` are requested; nothing is yielded before the
 * scores are in. Sets `found.settled` when every score is one the cache left in `scoring.out` answers for
 * the same records. What it keeps per run is typed arrays indexed by run number, and the records' bytes
 * in a staging file in `spoolDir`.
 */
export async function* pullRecords(
  ctx: FetchRecordsContext,
  runs: RunTable,
  share: Int32Array,
  found: { settled: boolean },
  scoring: Scoring,
  spoolDir: string,
): AsyncGenerator<string | Buffer> {
  const scored = share.filter((run) => runs.scored(run));
  const staging = await Staging.open(spoolDir);
  try {
    const others: string[] = [];
    const versions = new Float64Array(runs.size).fill(Number.NaN);
    // The seats a run's own answer must hold: its run document's count (owner: from its scorecard, fetched
    // when the cache does not know it), the key's one seat (agent); -1 where no such answer was taken.
    const owner = ctx.client.auth === "owner";
    const seats = new Int32Array(runs.size).fill(-1);
    // A run's scorecard is asked for as soon as its records are in (issue 40): the per-run fetches and
    // the scorecards share the client's slots instead of each phase waiting out the other's slowest call.
    const position = new Int32Array(runs.size);
    scored.forEach((run, at) => (position[run] = at));
    const readyRuns = new ReadyQueue(scored.length);
    const fetching = fetchRecords(
      ctx,
      runs,
      scored,
      async (v) => {
        noteVersion(versions, v.run, v.version);
        await staging.add(v.run, v.line);
      },
      (line) => others.push(line),
      (run, answered) => {
        if (answered) seats[run] = owner ? 0 : 1;
        readyRuns.push(position[run] as number);
      },
    ).then(
      () => readyRuns.end(),
      (error: unknown) => {
        readyRuns.fail(error);
        throw error;
      },
    );

    // A rerun of the same records takes each score from the cache only for a known version it holds.
    let settled = true;
    const versionOf = (run: number) => knownVersion(versions, run);
    const scoresIn = scoresOf(
      ctx.client,
      ctx.routes,
      scored,
      (run) => runs.runId(run),
      versionOf,
      scoring,
      ctx.tally,
      (score, run) => {
        const version = versionOf(run);
        settled &&= version !== undefined && score.cachedVersion === version;
        if (owner && seats[run] === 0) seats[run] = score.seats ?? 0;
      },
      (run, hit) => owner && seats[run] === 0 && hit.seats === undefined,
      readyRuns.next,
    );
    // The records' failure first: the scores' then only says their queue failed.
    const [fetched, scores] = await Promise.allSettled([fetching, scoresIn]);
    if (fetched.status === "rejected") throw fetched.reason;
    if (scores.status === "rejected") throw scores.reason;
    found.settled = settled;

    for (const run of scored) {
      const records = staging.count(run);
      const expected = seats[run] as number;
      if (records < expected) {
        // A short answer is deferred, never published short: a later night asks again (issue 40).
        ctx.tally.defer({ runId: runs.runId(run), reason: "missing_seats", seats: { expected, received: records } });
        continue;
      }
      yield* staging.bytes(run);
      ctx.tally.r.records += records;
      if (records > 0) ctx.tally.r.runsFetched++;
    }
    yield* others;
  } finally {
    await staging.dispose();
  }
}
