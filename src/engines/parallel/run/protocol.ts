import type { SuitesData } from "../../../formats/suite-book.js";
import type { RecordFacts } from "../../../formats/format.js";
import type { FormatName } from "../../../formats/format.js";
import type { SchemaNode } from "../fast/schema-node.js";
import type { RowGroupMetadata } from "../../../parquet/encode-row-group.js";
import type { Field } from "../../../schema/column-type.js";
import type { RunPlan } from "../../../plan/run-plan.js";
import type { DropReason, PairDropReason, QuarantineReason } from "../../../core/reasons.js";
import type { GateEntry } from "../../../formats/gate-book.js";
import type { ScoreBookData } from "../../../formats/scorecard-book.js";
import type { OutcomeColumns, SlotLayout } from "./outcome-columns.js";
import type { UnitViewCounts, ViewSetup } from "./unit-view.js";
import type { SplitRequest } from "../../../splits/split-assigner.js";
import type { PathAudit } from "../../../views/text-audit.js";
import type { StatsPartial } from "../../../stats/dataset-stats.js";

// No message of the parallel engine transfers an ArrayBuffer: each is copied, since one detach slows the
// thread's typed arrays for good (docs/decisions.md "hot code shape", typed arrays).
// `test/engines/parallel/run/no-detach.test.ts` guards it.

/**
 * What every worker is started with: enough to rebuild the run's stages on its side of the thread. The run
 * options are the RunPlan's (see `runParallel`); the rest is what main settled before the workers start.
 */
export interface WorkerConfig extends Pick<RunPlan, "acceptLaterMinor" | "filters" | "gateBy" | "selection"> {
  readonly format: FormatName;
  /** The user forced the format: other formats' records are judged by its version field alone. */
  readonly forced: boolean;
  /** The scorecards' gating (`GateBook` entries), or null: no scorecards. */
  readonly gates: readonly GateEntry[] | null;
  /** Valid scorecards (`ScoreBook.data`): RL and DPO thresholds, and their stats' scores. */
  readonly scores: ScoreBookData | null;
  readonly codec: "zstd" | "gzip" | "snappy" | "none";
  /** Lines longer than this are quarantined as line_too_long. */
  readonly maxLineBytes: RunPlan["guards"]["maxLineBytes"];
  /** JSON Lines output: units encode each row's JSON line, not Parquet row groups (see json-lines.ts). */
  readonly lines: boolean;
  /**
   * A nightly's buckets (with `lines`): each line is its record's key and version, then the record as the
   * snapshot stores it (`keyedLine`), for main to hand a keyed sink.
   */
  readonly keyed?: boolean;
  /** No dataset is written (validate): a unit's kept rows are counted and cleared, never encoded. */
  readonly discard?: boolean;
  /** The dataset's columns (after the untrusted policy), or the view's. */
  readonly columns: readonly Field[];
  /** The training view whose rows the dataset holds (the parser then only validates), or null. */
  readonly view: ViewSetup | null;
  /** A plain run's text scan: the paths scanned (`textAuditPaths`); null in a view's run, which scans its own rows' texts. */
  readonly textAudit: readonly string[] | null;
  /** The fast parser's compiled schema (`compileParserSchema`), so workers need not load zod; its policy marks strip the slow path's records too. */
  readonly schema: SchemaNode;
  /** A split run (`--split`): workers find each row's group and split (src/splits), or null. */
  readonly split: SplitRequest | null;
  /**
   * `--top-k-per-scenario`: the keys that made their scenario's top k, ranked by main between the reads; null
   * before (the workers then only rank, see {@link RankMessage}) and in a run without it.
   */
  readonly topKeys: readonly string[] | null;
  /** `--top-k-per-scenario`: the schema the ranking read parses with, bound to no columns (it validates only). */
  readonly rankSchema: SchemaNode | null;
  /** `--suites`: the decontamination rule's suites and run hashes (src/formats/suite-book.ts); null: off. */
  readonly suites: SuitesData | null;
}

/** A config whose units keep no row: they decide and count every line as ever, and encode, scan and build no lines for none. */
export function discarding(config: WorkerConfig): WorkerConfig {
  return { ...config, lines: false, keyed: false, discard: true, textAudit: null };
}

/**
 * Whole lines of one input, split by the worker. A unit (a run of batches that becomes one row group)
 * always goes to one worker; `last` closes it.
 */
export interface BatchMessage extends SentLines {
  readonly type: "batch";
  readonly unit: number;
  readonly batch: number;
  readonly last: boolean;
  /** The shared slot for the batch's outcome columns (see OutcomeColumns), or -1. */
  readonly outcomes: number;
}

/** Main's dedup decisions for a unit's rows, and how its kept rows split over shards (row counts, in order). */
export interface DecideMessage {
  readonly type: "decide";
  readonly unit: number;
  /** 1 keeps the row, 0 drops it; in a split run, split by split (split 0's rows in order, then split 1's...). */
  readonly keep: Uint8Array;
  /**
   * A view's run: per record that gave rows (LINE_ROW, in order), RECORD_KEPT when it stays, whose view counts
   * then count, RECORD_QUARANTINED when it won dedup and is quarantined for its rows, else 0.
   */
  readonly records: Uint8Array | null;
  readonly segments: readonly number[];
  /**
   * A split run: the split (its index in the plan's order) of each segment. Segments come a split at a time,
   * in the plan's order, each split's rows in their order; null: one split.
   */
  readonly segmentSplits: Uint32Array | null;
  /** The shared output slot for the encoded row groups, or -1 (none free): then they come back copied. */
  readonly out: number;
}

/**
 * `--top-k-per-scenario`'s first read: whole lines of one input, as in a {@link BatchMessage}, to parse and
 * report (see {@link RankedMessage}); nothing is kept.
 */
export interface RankMessage extends SentLines {
  readonly type: "rank";
  readonly batch: number;
}

/**
 * A batch's lines in a message: `length` bytes at the start of shared slot `slot`, or (slot -1) in `bytes`,
 * copied. The worker is done with the slot once it answers the batch.
 */
export interface SentLines {
  readonly slot: number;
  readonly length: number;
  readonly bytes: Uint8Array | null;
}

export type ToWorker = BatchMessage | DecideMessage | RankMessage;

/** What a worker thread starts with. */
export interface WorkerStart {
  readonly config: WorkerConfig;
  /** Main's batch memory, shared once for the whole run (see SharedSlots). */
  readonly slots: readonly SharedArrayBuffer[];
  /** Memory for encoded units, shared once for the whole run. */
  readonly outSlots: readonly SharedArrayBuffer[];
  /** Memory for batches' outcome columns, shared once for the whole run. */
  readonly outcomeSlots: readonly SharedArrayBuffer[];
}

/** What a line became in the worker. */
export const LINE_ROW = 0; // valid, passed the filters, shredded as row `rows[k]`
export const LINE_FILTERED = 1; // valid, dropped by a filter rule
export const LINE_QUARANTINED = 2;
export const LINE_STREAM_ERROR = 3;

/** Where in its batch a line sits: line number from 0, byte offset. */
export interface LineAt {
  readonly line: number;
  readonly offset: number;
}

export interface StreamErrorAt extends LineAt {
  readonly runIndex: number | null;
}

export interface QuarantineOutcome extends LineAt {
  readonly reason: QuarantineReason;
  readonly detail: string;
  readonly raw: string;
  readonly rawLength: number;
}

/** The outcome of each non-blank line of a batch, in order; per-kind details in the arrays, in line order. */
export interface OutcomesMessage {
  readonly type: "outcomes";
  readonly unit: number;
  readonly batch: number;
  /** Line ends (`\n`) in the batch, blank lines included: what numbers the next batch's lines. */
  readonly newlines: number;
  /**
   * Each line's kind, valid lines' keys and versions, rows' lengths: here, or (null) in the batch's outcome
   * slot, laid out as `layout` says.
   */
  readonly columns: OutcomeColumns | null;
  readonly layout: SlotLayout | null;
  /** A view's run: the rows each LINE_ROW line gave (0 or more; a plain run's give one each, and this is null). */
  readonly rowCounts: Uint32Array | null;
  /** `partial_stream` lines, with their `run_index` (issue 20: the manifest lists the runs a stream missed). */
  readonly streamErrors: readonly StreamErrorAt[];
  /** Filtered lines: the rule. */
  readonly filtered: readonly DropReason[];
  readonly quarantined: readonly QuarantineOutcome[];
  /** Rows the prune rule took pairs out of (DPO; few): the row's place among the batch's rows, and the counts. */
  readonly droppedPairs: readonly PrunedRow[];
  /**
   * `--on-injection quarantine`: the LINE_ROW lines (giving no rows) their view quarantines, should they stay
   * once main has decided dedup: the row's place among the batch's rows, and its quarantine entry.
   */
  readonly injected: readonly InjectedRow[];
  /**
   * `--suites`: the valid lines the rule does not clear (pinned, or their run's hash unknown), with what it
   * reads: main counts them per suite, as the rule does, for those that win dedup.
   */
  readonly suiteFacts: readonly SuiteFactsAt[];
  /** A split run: the group and split of each LINE_ROW line; null otherwise. */
  readonly splits: BatchSplits | null;
}

/** A split run's batch: its rows' groups, each group once, and their splits. */
export interface BatchSplits {
  /** The groups (`scenario.campaign_id` or `run_id`) of the batch's LINE_ROW lines, each once, in order of first row. */
  readonly groups: readonly string[];
  /** Each group's split: its index in the plan's order. */
  readonly splitOf: Uint32Array;
  /** Each LINE_ROW line's group: its index in `groups`. */
  readonly rowGroups: Uint32Array;
}

export interface SuiteFactsAt extends Pick<RecordFacts, "runIds" | "scenarioVersionHash" | "campaignId"> {
  /** The line's place among the batch's valid lines. */
  readonly valid: number;
}

export interface InjectedRow extends QuarantineOutcome {
  readonly row: number;
}

export interface PrunedRow {
  readonly row: number;
  readonly counts: Readonly<Partial<Record<PairDropReason, number>>>;
}

/**
 * A unit's kept rows as encoded row groups, one per shard segment. Their bytes lie back to back at the
 * start of the decision's output slot, or (`bytes`, when the slot was -1 or too small) come copied.
 */
export interface EncodedMessage extends EncodedUnit {
  readonly type: "encoded";
  readonly unit: number;
}

/** What a unit's decision encodes (`UnitConverter.decide`), sent back as an {@link EncodedMessage}. */
export interface EncodedUnit {
  readonly groups: readonly RowGroupMetadata[];
  readonly bytes: Uint8Array | null;
  /** A view's run: what the unit's kept records gave the view. */
  readonly view: UnitViewCounts | null;
  /** A plain run: the text scan of the unit's kept records. */
  readonly audit: Readonly<Record<string, PathAudit>> | null;
  /** The dataset's statistics of the unit's kept rows (issue 36), merged in main. */
  readonly stats: StatsPartial;
}

/**
 * A rank batch's valid records, in order: key and scorecard version each; scenario and composite of those
 * that compete (every other rule keeps them), else "" and NaN.
 */
export interface RankedMessage {
  readonly type: "ranked";
  readonly batch: number;
  readonly keys: readonly string[];
  readonly versions: Float64Array;
  readonly campaigns: readonly string[];
  readonly composites: Float64Array;
}

export interface FailedMessage {
  readonly type: "failed";
  readonly message: string;
  readonly stack: string | undefined;
  /** The failure was a ConfigError (the user's input or options), which main throws as one. */
  readonly config: boolean;
}

export type FromWorker = OutcomesMessage | EncodedMessage | FailedMessage;
