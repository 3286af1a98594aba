import type { PullTally } from "./pull-report.js";
import type { RunTable } from "./run-table.js";

/** Finished states (spec 3.1: one reference also names `ended`). */
const FINISHED = new Set(["completed", "ended"]);

/** Reports the completed but not yet scored runs of `share` (numbers in `runs`) as deferred: scoring lags completion. */
export function deferUnscored(runs: RunTable, share: ArrayLike<number>, tally: PullTally): void {
  for (let i = 0; i < share.length; i++) {
    const run = share[i] as number;
    const status = runs.status(run);
    if (!runs.scored(run) && status !== null && FINISHED.has(status)) tally.defer({ runId: runs.runId(run), reason: "not_scored" });
  }
}
