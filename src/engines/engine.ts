import type { SuiteBook } from "../formats/suite-book.js";
import type { Quarantined } from "../core/flow.js";
import type { Tally } from "../core/tally.js";
import type { FormatBasics } from "../formats/format.js";
import type { ScoreBook } from "../formats/scorecard-book.js";
import type { GateBook } from "../formats/gate-book.js";
import type { ShardInfo } from "../output/shard-format.js";
import type { ShardFormat } from "../output/shard-format.js";
import type { RowGroupShardSets } from "../output/row-group-shard-sets.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import type { Field } from "../schema/column-type.js";
import type { LineSource } from "../sources/line-source.js";
import type { UntrustedPolicy } from "../stages/untrusted-policy.js";
import type { PathAudit } from "../views/text-audit.js";
import type { ViewManifest } from "../views/view-manifest.js";
import type { SplitManifest } from "../splits/split-assigner.js";
import type { RowOrigin } from "../output/row-origin.js";
import type { SettledInput } from "../output/settled-input.js";
import type { WrittenFile } from "../output/storage.js";
import type { DatasetStats } from "../stats/dataset-stats.js";

// Declared beside the sinks that read them (output/ imports nothing of engines/); the engine and every sink name them from here.
export type { RowOrigin, SettledInput };

/** A run's inputs: the lines, and the runs the scorecards gate out. */
export interface RunSources {
  readonly lines: readonly LineSource[];
  /**
   * The scorecards' gating (undefined: no scorecards), asked for once the first read of the lines is done:
   * a pull learns it while it fetches. The one rule reads it (src/formats/gate-book.ts).
   */
  readonly gates: () => GateBook | undefined;
  /**
   * Valid scorecards by seat (convert's `--scorecards`; undefined: none): the selection's thresholds read
   * RL and DPO scores from them.
   */
  readonly scores?: () => ScoreBook | undefined;
  /**
   * The released benchmark suites and the runs' scenario hashes (undefined: decontamination off), asked
   * for once the first read is done (a pull learns RL and DPO runs' hashes while it fetches).
   */
  readonly suites?: () => SuiteBook | undefined;
  /**
   * The RL records a DPO view joins against when the plan names no `--context` (a pull fetches the paired
   * runs' records itself), asked for once the first read is done; null: none.
   */
  readonly viewContext?: () => { readonly path: string; readonly name: string } | null;
}

/** Where quarantined lines go (the dataset sink's `QuarantineWriter`, or validate's first-bad list). */
export interface QuarantineSink {
  readonly path: string;
  readonly entries: number;
  /** The closed file's size and sha256, for the manifest (`verify` checks them); absent where nothing is stored. */
  readonly written?: WrittenFile | null;
  write(item: Quarantined): Promise<void>;
  close(): Promise<void>;
}

/** Kept rows as the JSON lines a keyed sink stores (`stringifyExact` of the record), each with its origin. */
export interface KeyedRows {
  add(line: string, origin: RowOrigin): Promise<void>;
  /** Once every row is in: `input` is what the run settled (its keys are known only now). */
  finish(input: SettledInput): Promise<ShardInfo[]>;
  /** Drops the rows added so far, for a read that starts over (a later copy beat a written row). */
  restart(): Promise<void>;
}

/**
 * What the units engine writes into (the `DatasetSink`, or validate's `FirstBadSink`): shards rotated by size,
 * fed encoded row groups or lines a set per split; or a nightly's buckets, fed rows by origin; and the quarantine.
 */
export interface RowSink {
  /** A local directory for the run's temporary files (a view's context inputs are spooled there). */
  readonly scratch: string;
  /** It writes no dataset (validate's): the units decide and count every row as ever, and encode none. */
  readonly discards?: boolean;
  rowGroupSets(plan: ColumnPlan, input?: Pick<SettledInput, "splits">): RowGroupShardSets;
  /** `--to jsonl`: JSON Lines shards fed encoded lines, a set per split. */
  lineSets(format: ShardFormat, columns: readonly Field[], input?: Pick<SettledInput, "splits">): RowGroupShardSets;
  /** Buckets (the plan's rotation): kept rows keyed by origin. */
  keyedRows(format: ShardFormat, columns: readonly Field[]): KeyedRows;
  quarantine(format: string): QuarantineSink;
}

/** What an engine settled and wrote: the job's manifest and card are made of it. */
export interface EngineRun {
  /** The engine's name in the manifest (`output.engine`): this version's one engine. */
  readonly engine: "parallel";
  readonly format: FormatBasics;
  readonly policy: UntrustedPolicy;
  /** The dataset's columns: the format's, less what the policy drops. */
  readonly columns: readonly Field[];
  readonly shards: readonly ShardInfo[];
  /** Every line of the inputs, counted once. */
  readonly tally: Tally;
  /** Closed. */
  readonly quarantine: QuarantineSink;
  /** Per path of the texts a plain output keeps: written, would be sanitized, match an injection pattern. */
  readonly textAudit?: Readonly<Record<string, PathAudit>>;
  /** The dataset's statistics (issue 36), counted from each kept row as it was written. */
  readonly stats: DatasetStats;
  /** A split run (`--split`): rows and groups per split. */
  readonly split?: SplitManifest;
  /** A training view's run: the manifest's `view` section and the card's paragraph. */
  readonly view?: { readonly manifest: ViewManifest; readonly card: { readonly name: string; readonly lines: readonly string[] } };
}
