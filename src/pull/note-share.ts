import type { PullTally } from "./pull-report.js";
import type { RunTable } from "./run-table.js";

/** Finished states (spec 3.1: one reference also names `ended`). */
const FINISHED = new Set(["completed", "ended"]);

/**
 * Counts this job's share of the listed runs (numbers in `runs`) and its scored runs, and reports the
 * completed but not yet scored ones as deferred (scoring lags completion), then the `listed` event.
 */
export function noteShare(runs: RunTable, share: ArrayLike<number>, tally: PullTally): void {
  let scored = 0;
  for (let i = 0; i < share.length; i++) {
    const run = share[i] as number;
    const status = runs.status(run);
    if (runs.scored(run)) scored++;
    else if (status !== null && FINISHED.has(status)) tally.defer({ runId: runs.runId(run), reason: "not_scored" });
  }
  tally.r.runsInPartition = share.length;
  tally.r.runsScored = scored;
  tally.emit({ type: "listed", runs: runs.size, inPartition: share.length, scored });
}
