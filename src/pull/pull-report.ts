import type { AuthMode, ClientEvent, ConflictReason } from "../http/index.js";
import type { Partition } from "./partition.js";
import type { PullFormat } from "./routes.js";

/** Why a listed run's records are not in this pull; it is picked up by a later one. */
export interface DeferredRun {
  readonly runId: string;
  /**
   * `not_scored`: listed as completed but not yet scored. `conflict`: a per-run export answered 409.
   * `missing_seats`: its records came from its own route, which answered fewer seats than the run has (its
   * run document's `seat_snapshots`; on agent routes, the key's one seat): a short run is never published.
   */
  readonly reason: "not_scored" | "conflict" | "missing_seats";
  /** The 409's reason, for `conflict`. */
  readonly conflict?: ConflictReason;
  /** For `missing_seats`: the seats the run has, and the records received for it. */
  readonly seats?: { readonly expected: number; readonly received: number };
}

/** A DPO pair the service refused with 400 (scenario mismatch or provenance missing). */
export interface PairError {
  readonly runIdA: string;
  readonly runIdB: string;
  readonly message: string;
}

/**
 * What one pull did. A report exists only for a pull that finished: any failure the client's retries
 * could not overcome (and every 401 and 403) ends the pull with that error instead, so a night with an
 * incomplete fetch fails rather than publishing a partial dataset. What a report lists (deferred runs,
 * runs without RL data, DPO ties and mismatches) are answers of the service, not failed fetches.
 */
export interface PullReport {
  /** The source's name: `<base_url><route> (<auth>)`. */
  readonly source: string;
  readonly auth: AuthMode;
  readonly format: PullFormat;
  readonly partition: Partition | null;
  /** Distinct runs the service listed. */
  readonly runsListed: number;
  /** Listed runs in this job's share (for DPO: of scenarios in this job's share; null until known). */
  readonly runsInPartition: number;
  /** Of those, runs listed as scored. */
  readonly runsScored: number;
  /** Runs with at least one record in the spool (DPO: runs in at least one fetched pair). */
  readonly runsFetched: number;
  /** Record lines in the spool (`partial_stream` lines not included). */
  readonly records: number;
  /** Record lines taken from the bulk streams, and runs fetched one by one because the streams lacked them. */
  readonly bulkRecords: number;
  readonly perRunFetches: number;
  /** Bulk records of runs outside this job's run list (unscored, other share, or not listed): dropped. */
  readonly droppedOutside: number;
  readonly deferred: readonly DeferredRun[];
  /** RL only: scored runs the service has no RL data for (404), e.g. runs without a session. */
  readonly noRlData: readonly string[];
  /** Runs in this job's share with a card stamped gated (`true` or an object); gating itself is per seat unless `gate_by: run`. */
  readonly gated: number;
  /** Cards whose stamp or `agent_key_id` cannot be read, each naming run, key and field: their seats are dropped (`unreadable_gating`). */
  readonly unreadableGating: readonly string[];
  /**
   * Scored runs whose score came from the cache given to the source (same run, same scorecard version
   * as their records carry), and runs whose scorecards were requested.
   */
  readonly scorecardsCached: number;
  readonly scorecardsFetched: number;
  /**
   * `{"error":"partial_stream"}` lines seen in the bulk streams. SFT and RL pass them to the spool as
   * they came (the pipeline counts them as stream errors) after the records; the runs they stand for
   * are fetched one by one. DPO reads SFT streams only for `flagged` and writes none of them.
   */
  readonly streamErrors: number;
  /** Bulk streams cut after some lines and completed by re-requesting (needs `clientEvent`). */
  readonly streamCuts: number;
  readonly pairs: {
    readonly planned: number;
    readonly fetched: number;
    /** 409 tie: skipped. */
    readonly ties: number;
    /** 409 other than a tie (e.g. not yet scored): left for a later pull. */
    readonly deferred: number;
    /** 400: counted, not thrown. */
    readonly errors: readonly PairError[];
    /** Scored runs left out of pairing: flagged, gated, without a per-seat trace, or without trait scores. */
    readonly excluded: number;
  };
  /** Logical requests this pull made, and retries and hedges (second copies of slow GETs) the client reported (needs `clientEvent`). */
  readonly requests: number;
  readonly retries: number;
  readonly hedges: number;
  /** Things worth a log line, e.g. a key without `manage:runs` whose batches could not be listed. */
  readonly notes: readonly string[];
}

/** Progress of a pull, for logging. */
export type PullEvent =
  | { readonly type: "listed"; readonly runs: number; readonly inPartition: number; readonly scored: number }
  | { readonly type: "scorecards"; readonly runs: number; readonly gated: number }
  | { readonly type: "bulk"; readonly path: string; readonly records: number; readonly streamErrors: number }
  | { readonly type: "run_fetched"; readonly runId: string; readonly records: number }
  | { readonly type: "deferred"; readonly run: DeferredRun }
  | { readonly type: "pair"; readonly runIdA: string; readonly runIdB: string; readonly outcome: "fetched" | "tie" | "error" | "deferred" }
  | { readonly type: "done"; readonly report: PullReport };

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] extends object ? Mutable<T[K]> : T[K] };

/** The counters behind a PullReport, filled in as the pull goes. */
export class PullTally {
  readonly r: Mutable<PullReport>;

  constructor(
    init: Pick<PullReport, "source" | "auth" | "format" | "partition">,
    private readonly onEvent: ((event: PullEvent) => void) | undefined,
  ) {
    this.r = {
      ...init,
      partition: init.partition === null ? null : { ...init.partition },
      runsListed: 0,
      runsInPartition: 0,
      runsScored: 0,
      runsFetched: 0,
      records: 0,
      bulkRecords: 0,
      perRunFetches: 0,
      droppedOutside: 0,
      deferred: [],
      noRlData: [],
      gated: 0,
      unreadableGating: [],
      scorecardsCached: 0,
      scorecardsFetched: 0,
      streamErrors: 0,
      streamCuts: 0,
      pairs: { planned: 0, fetched: 0, ties: 0, deferred: 0, errors: [], excluded: 0 },
      requests: 0,
      retries: 0,
      hedges: 0,
      notes: [],
    };
  }

  emit(event: PullEvent): void {
    this.onEvent?.(event);
  }

  defer(run: DeferredRun): void {
    this.r.deferred.push(run);
    this.emit({ type: "deferred", run });
  }

  /** Counts what the service client reports (retries, hedges, stream cuts). */
  clientEvent(event: ClientEvent): void {
    if (event.type === "retry") this.r.retries++;
    else if (event.type === "hedge") this.r.hedges++;
    else if (event.linesDelivered > 0) this.r.streamCuts++;
  }

  /** A deep copy, so later counting does not change a report already handed out. */
  snapshot(): PullReport {
    return structuredClone(this.r);
  }
}
