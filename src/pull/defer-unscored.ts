import type { ListedRun } from "./list-runs.js";
import type { PullTally } from "./pull-report.js";

/** Finished states (spec 3.1: one reference also names `ended`). */
const FINISHED = new Set(["completed", "ended"]);

/** Reports the completed but not yet scored runs of `share` as deferred: scoring lags completion. */
export function deferUnscored(share: readonly ListedRun[], tally: PullTally): void {
  for (const run of share) if (!run.scored && run.status !== null && FINISHED.has(run.status)) tally.defer({ runId: run.runId, reason: "not_scored" });
}
