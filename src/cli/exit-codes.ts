import type { PublishDecision, PublishGuard } from "../output/publish-guard.js";

/** Process exit codes: what a scheduler alerts on. */
export const EXIT = {
  ok: 0,
  /** Any failure that is not the caller's configuration: I/O, a locked output, an internal error. */
  failure: 1,
  /** A flag, option, path or pipeline value is wrong. */
  usage: 2,
  /** The quarantined share exceeded --max-quarantined: not published (published with --publish-anyway). */
  quarantineExceeded: 3,
  /** The service refused the credentials: 401 (missing, malformed or revoked) or 403 (scope, entitlement, seat). */
  credentialsRefused: 4,
  /** `verify` found a published dataset that differs from its manifest (a shard changed, missing or unlisted, ...). */
  verifyFailed: 5,
  /** More `partial_stream` lines than --max-stream-errors: not published (published with --publish-anyway). */
  streamErrorsExceeded: 6,
  /** Fewer records than --min-records: not published (published with --publish-anyway). */
  tooFewRecords: 7,
  /** The run would empty the published dataset or drop more than --max-shrink of its rows: not published (published with --publish-anyway). */
  shrinkExceeded: 8,
  /** The benchmark suites answer failed spec 2.10's shape (or lacks a suite `--suites` names): the night published nothing (issue 35). */
  badSuites: 9,
  /** `commit` found a part of the night not staged (missing, failed, or rerun for another night since): nothing published. */
  partsMissing: 10,
} as const;

const GUARD_EXIT: Readonly<Record<PublishGuard, number>> = {
  max_quarantined: EXIT.quarantineExceeded,
  max_stream_errors: EXIT.streamErrorsExceeded,
  min_records: EXIT.tooFewRecords,
  max_shrink: EXIT.shrinkExceeded,
};

/** The exit code of a run the publish guards judged: the first tripped guard's, published anyway or not. */
export function exitOfDecision(decision: Pick<PublishDecision, "tripped">): number {
  const first = decision.tripped[0];
  return first === undefined ? EXIT.ok : GUARD_EXIT[first.guard];
}
