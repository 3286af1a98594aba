import type { Readable } from "node:stream";
import type { FormatName } from "../formats/format.js";
import type { GateBy } from "../formats/card-gate.js";
import type { FilterRule } from "../core/reasons.js";
import type { LineSource } from "../sources/line-source.js";
import type { CommandName } from "./option-spec.js";
import type { Compression, OutputKind } from "./options.js";
import type { ViewName } from "../views/view.js";
import type { ViewRequest } from "../views/open-view-run.js";
import type { SelectionPlan } from "../stages/select-plan.js";

export type { SelectionPlan };
import type { SplitRequest } from "../splits/split-assigner.js";
import type { GuardLimits } from "../output/publish-guard.js";

/** Forced by the user, or detected from the first record that names its format. */
export type FormatChoice = { readonly detect: true } | { readonly forced: FormatName };

/** Where the records come from. */
export type SourcePlan =
  | {
      readonly kind: "files";
      readonly inputs: readonly (string | LineSource)[];
      readonly stdin: Readable | undefined;
      readonly scorecards: string | undefined;
      /** Issue 35: a saved suites answer, and the runs' scenario hashes for records that carry none. */
      readonly suites?: string;
      readonly runManifests?: string;
    }
  | {
      readonly kind: "http";
      readonly baseUrl: string;
      readonly auth: "agent" | "owner";
      readonly concurrency: number;
      readonly partition: string | undefined;
      readonly partitionBy: "run" | "scenario";
      readonly dpo: { readonly strategy: "best-worst" | "adjacent" | "all"; readonly maxPairsPerScenario: number };
    };

/** How kept rows are cut into shards: by size (convert) or into a fixed number of hash buckets (nightly). */
export type Rotation = { readonly kind: "size"; readonly maxRows: number; readonly maxBytes: number } | { readonly kind: "buckets"; readonly buckets: number; readonly keepSnapshots: number };

export interface ShardPlan {
  readonly to: OutputKind;
  readonly compression: Compression;
  readonly rotation: Rotation;
  /** How long a replaced local snapshot stays readable after the switch (issue 40): the publish waits it out. */
  readonly snapshotGraceMs: number;
}

/** What stops a run or a line: checked by the job, not the stages. */
export interface Guards extends GuardLimits {
  /** Lines longer than this are quarantined as line_too_long. */
  readonly maxLineBytes: number;
}

/**
 * The dataset's columns are the format's, less what the untrusted policy drops: known only once the format
 * is (`columnsOf` in `plan-columns.ts` settles them then).
 */
export interface ColumnsPlan {
  readonly from: "format";
  readonly untrusted: Readonly<Record<string, string>>;
}

/** Dedup is not configurable: one row per record key, the copy with the latest scorecard version wins. */
export interface DedupPlan {
  readonly key: "format";
  readonly keep: "latest-scorecard";
}

/** Issue 18: a training view and its options, checked against the input format and the output (view-plan-of.ts). */
export interface ViewPlan extends ViewRequest {
  readonly name: ViewName;
}

/** Issue 19: a leak-free split (src/splits/): names and fractions in order, what a group is, the hash's key. */
export type SplitPlan = SplitRequest;

/** One run, resolved from options however they came (library call, CLI flags, pipeline file). */
export interface RunPlan {
  readonly command: CommandName;
  readonly source: SourcePlan;
  /** The output directory; undefined for `validate`, which writes nothing. */
  readonly out: string | undefined;
  /** With `out` "-": where the manifest goes instead of standard error. */
  readonly manifestFile?: string;
  /** The output lock's lease (`--lease-seconds`); absent: the storage's default. */
  readonly leaseMs?: number;
  readonly format: FormatChoice;
  readonly acceptLaterMinor: boolean;
  /** Every filter rule, on or off. */
  readonly filters: Readonly<Record<FilterRule, boolean>>;
  /** Participation gating by each seat's own card, or by the whole run (src/formats/gate-book.ts). */
  readonly gateBy: GateBy;
  readonly selection: SelectionPlan;
  /** No scorecards while participation gating is on is an error, not a warning. */
  readonly requireScorecards: boolean;
  /** Decontamination that cannot decide is an error, not a warning (issue 35). */
  readonly requireSuites: boolean;
  /** The user's untrusted-path overrides (path -> action): the policy's input; the format's defaults apply to the rest. */
  readonly untrusted: Readonly<Record<string, string>>;
  readonly columns: ColumnsPlan;
  readonly dedup: DedupPlan;
  readonly shards: ShardPlan;
  readonly guards: Guards;
  /** Worker threads; 0: the engine runs on main's thread alone. */
  readonly engine: { readonly workers: number };
  /** `validate`: how many offending lines to report. */
  readonly firstBad: number;
  readonly view?: ViewPlan;
  readonly split?: SplitPlan;
}
