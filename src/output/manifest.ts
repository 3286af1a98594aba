import { conflictWarnings } from "./conflict-warnings.js";
import { sealedManifest } from "./manifest-seal.js";
import { countTotal, type Counts } from "../core/tally.js";
import { EVALSHARD_VERSION } from "../core/version.js";
import type { FormatBasics } from "../formats/format.js";
import type { SelectionPlan } from "../stages/select-plan.js";
import type { InputInfo, LineSource } from "../sources/line-source.js";
import type { PathAudit } from "../views/text-audit.js";
import type { ViewManifest } from "../views/view-manifest.js";
import type { PublishDecision } from "./publish-guard.js";
import type { ShardInfo } from "./shard-format.js";
import type { WrittenFile } from "./storage.js";
import type { DecontaminationManifest } from "./decontamination.js";
import type { SplitManifest } from "../splits/split-assigner.js";
import type { StatsManifest } from "../stats/dataset-stats.js";

/** What every job's manifest says of its run, whichever job and engine made it. */
export interface ManifestBase extends Counts {
  readonly evalshard_version: string;
  readonly started_at: string;
  readonly finished_at: string;
  readonly format: { readonly name: string; readonly version_field: string; readonly version: string };
  readonly shards: readonly ShardInfo[];
  readonly inputs: readonly InputInfo[];
  readonly quarantine: ManifestQuarantine | null;
  readonly untrusted: Readonly<Record<string, string>>;
  readonly quarantined_share: number;
  readonly warnings: readonly string[];
  /** The sha256 of the manifest's text without this key, which comes last (`sealedManifestText`): `verify` checks it. */
  readonly manifest_sha256: string;
}

/** The quarantine file a manifest names: its entries, and (since `verify` checks its bytes) its size and sha256. */
export interface ManifestQuarantine {
  readonly path: string;
  readonly entries: number;
  readonly bytes?: number;
  readonly sha256?: string;
}

/** What every publishing job's manifest adds (issue 20): the runs a stream missed, and the publish guards' verdict. */
export interface PublishFacts {
  /** The `run_index` values of the `{"error": "partial_stream"}` lines, ascending. */
  readonly stream_error_runs: readonly number[];
  readonly publish: PublishDecision;
}

/** `OUT/manifest.json` of a conversion: written last, it is what schedulers and alerts read. */
export interface Manifest extends ManifestBase, PublishFacts, ManifestSections {
  readonly output: {
    readonly to: string;
    readonly compression: string;
    readonly layout: "huggingface";
    /** "train"; a split dataset's split names (`--split`), in order. */
    readonly split: string | readonly string[];
    /** Which engine wrote it: "parallel", this version's one engine (an earlier version's may say "stages"). */
    readonly engine: string;
  };
  readonly options: {
    readonly filters: Readonly<Record<string, boolean>>;
    /** Issue 39: participation gating by each seat's own card, or by the whole run (src/formats/gate-book.ts). */
    readonly gate_by?: string;
    /** Issue 19: which seats were kept (src/stages/select.ts); each rule's drops are in `dropped`. */
    readonly selection?: SelectionPlan;
    /** The scorecards read: valid cards, gated runs and seats, and the cards quarantined (issue 20, jobs/scorecards-summary.ts). */
    readonly scorecards: {
      readonly path: string;
      readonly gated_runs: number;
      readonly cards?: number;
      readonly gated_seats?: number;
      readonly quarantined_count?: number;
      readonly quarantined?: readonly { readonly where: string; readonly reason: string; readonly detail: string }[];
      /** Issue 39: cards read for gating, those whose gating cannot be read, and the faulty cards read (jobs/scorecards-summary.ts). */
      readonly gating_cards?: number;
      readonly unreadable_cards?: number;
      readonly warnings_count?: number;
      readonly warnings?: readonly { readonly where: string; readonly reason: string; readonly run_id: string; readonly agent_key_id: string; readonly field: string; readonly detail: string }[];
    } | null;
    readonly shard_rows: number;
    readonly shard_bytes: number;
    readonly max_line_bytes: number;
    readonly max_quarantined: number;
    readonly accept_later_minor: boolean;
  };
}

/** The sections a conversion's and a night's manifests hold alike, each only when the run has one. */
export interface ManifestSections {
  /** Issue 18: per path of the texts a plain output keeps: written, would be sanitized, match an injection pattern. */
  readonly text_audit?: Readonly<Record<string, PathAudit>>;
  /** A training view's run: what the view made of the kept records (a night's `night` then counts rows, keyed by their record's key). */
  readonly view?: ViewManifest;
  /** A split dataset (issue 19): the split asked for, and the rows and groups each split holds. */
  readonly split?: SplitManifest;
  /** Issue 36: the dataset's statistics, counted from each row as it was written (src/stats/dataset-stats.ts). */
  readonly stats?: StatsManifest;
  /** Issue 35: the benchmark suites the run decontaminated against (a convert's `asked`: the `--suites` file), and what each took out. */
  readonly decontamination?: DecontaminationManifest;
}

/** What a run settled and wrote, as {@link buildManifest} reads it. */
export interface ManifestFacts {
  /** ISO time the job started. */
  readonly startedAt: string;
  readonly format: Pick<FormatBasics, "name" | "versionField" | "version">;
  /** The run's tally (`Tally`). */
  readonly tally: { counts(): Counts; quarantinedShare(): number };
  readonly shards: readonly ShardInfo[];
  /** The inputs, each asked for its `info()` once read. */
  readonly sources: readonly Pick<LineSource, "info">[];
  /** The quarantine written (path relative to the dataset): reported only when it holds entries. */
  readonly quarantine: { readonly path: string; readonly entries: number; readonly written?: WrittenFile | null };
  /**
   * Where the published files live relative to the dataset's root (a staging's `base`: `snapshots/<id>/` on
   * object storage, "" locally): the manifest's paths get it, so each resolves from the root (issue 39).
   */
  readonly base?: string;
  /** The untrusted policy's summary, path -> action. */
  readonly untrusted: Readonly<Record<string, string>>;
  readonly warnings: readonly string[];
}

/** Keys around the counts, in the order manifests have always listed them; a job's own keys fall in place. */
const BEFORE_COUNTS = ["evalshard_version", "pipeline", "snapshot", "started_at", "finished_at", "format", "output"];
const AFTER_COUNTS = ["stream_error_runs", "night", "split", "stats", "shards", "inputs", "pull", "quarantine", "options", "filters", "gate_by", "untrusted", "quarantined_share", "warnings", "publish"];

/**
 * A job's manifest: the part every job shares, from `facts`, and the job's own sections (`output`,
 * `options`; a nightly's `pipeline`, `night`, `pull`, `filters`). Throws when the counts do not reconcile.
 */
export async function buildManifest<Job extends object>(facts: ManifestFacts, job: Job): Promise<ManifestBase & Job> {
  const counts = facts.tally.counts();
  if (!reconciles(counts)) throw new Error(`Internal error: counts do not reconcile: ${JSON.stringify(counts)}`);
  const inputs = await Promise.all(facts.sources.map((s) => s.info()));
  const { quarantine } = facts;
  const base = facts.base ?? "";
  const parts: Record<string, unknown> = {
    evalshard_version: EVALSHARD_VERSION,
    started_at: facts.startedAt,
    finished_at: new Date().toISOString(),
    format: { name: facts.format.name, version_field: facts.format.versionField, version: facts.format.version },
    shards: base === "" ? facts.shards : facts.shards.map((s) => ({ ...s, path: `${base}${s.path}` })),
    inputs,
    quarantine: quarantine.entries === 0 ? null : { path: `${base}${quarantine.path}`, entries: quarantine.entries, ...(quarantine.written == null ? {} : { bytes: quarantine.written.bytes, sha256: quarantine.written.sha256 }) },
    untrusted: facts.untrusted,
    quarantined_share: facts.tally.quarantinedShare(),
    warnings: [...facts.warnings, ...conflictWarnings(counts)],
    ...job,
  };
  const manifest: Record<string, unknown> = {};
  for (const key of BEFORE_COUNTS) if (key in parts) manifest[key] = parts[key];
  Object.assign(manifest, counts);
  for (const key of AFTER_COUNTS) if (key in parts) manifest[key] = parts[key];
  for (const key of Object.keys(parts)) if (!(key in manifest)) manifest[key] = parts[key];
  return sealedManifest(manifest) as unknown as ManifestBase & Job;
}

/** The bookkeeping invariant every manifest must satisfy. */
export function reconciles(m: Counts): boolean {
  return m.records_in === m.records_out + countTotal(m.dropped) + countTotal(m.quarantined);
}
