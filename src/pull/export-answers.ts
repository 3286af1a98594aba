import type { BodyDigest } from "../http/index.js";
import type { PullReport } from "./pull-report.js";
import { isScorecardTarget } from "./routes.js";

/** Entries are joined into one string per this many, so a 100,000-run pull holds a few hundred strings, not one per request. */
const JOIN_EVERY = 1024;

/**
 * What every export request of a pull answered (run lists, bulk streams, per-run exports; scorecards
 * are not exports: a rerun takes them from the score cache), as `sha256<TAB>bytes<TAB>target` lines in
 * the order the bodies were read to their end. A pull whose every such request answers the same bytes
 * again would make the same requests and spool the same lines (docs/decisions.md, "A no-op rerun
 * compares answers").
 */
export interface AnsweredExports {
  /** One line per export request, each ending in `\n`. */
  readonly entries: string;
  readonly requests: number;
  /** The report a pull of the same answers makes when every score comes from the cache this pull leaves. */
  readonly rerunReport: PullReport;
}

/** Collects a pull's body digests as the client reports them (its `onBody`). */
export class ExportAnswers {
  private readonly parts: string[] = [];
  private batch: string[] = [];
  private exports = 0;
  /** Every 2xx body heard, scorecards included: one per logical request when none failed or was cut. */
  bodies = 0;

  note(digest: BodyDigest): void {
    this.bodies++;
    if (isScorecardTarget(digest.target)) return;
    this.exports++;
    this.batch.push(`${digest.sha256}\t${digest.bytes}\t${digest.target}\n`);
    if (this.batch.length >= JOIN_EVERY) this.flush();
  }

  /**
   * The answers, when a rerun may compare them instead of pulling: every logical request of the pull
   * answered one whole 2xx body (no error status, no cut stream completed by re-requesting) and every
   * score is one the cache the pull leaves will answer (`settled`). Null otherwise.
   */
  answered(report: PullReport, settled: boolean): AnsweredExports | null {
    if (!settled || report.streamCuts > 0 || this.bodies !== report.requests) return null;
    if (report.requests - report.scorecardsFetched !== this.exports) return null;
    this.flush();
    const rerunReport: PullReport = {
      ...report,
      scorecardsCached: report.scorecardsCached + report.scorecardsFetched,
      scorecardsFetched: 0,
      requests: this.exports,
      retries: 0,
      hedges: 0,
    };
    return { entries: this.parts.join(""), requests: this.exports, rerunReport };
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    this.parts.push(this.batch.join(""));
    this.batch = [];
  }
}
