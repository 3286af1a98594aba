import type { Counts } from "../../core/tally.js";
import type { InputInfo } from "../../sources/line-source.js";
import type { ShardInfo } from "../../output/shard-format.js";
import type { PullReport } from "../../pull/index.js";
import type { ViewManifest } from "../../views/view-manifest.js";
import type { PathAudit } from "../../views/text-audit.js";
import type { ManifestQuarantine, PublishFacts } from "../../output/manifest.js";
import type { DecontaminationManifest } from "../../output/decontamination.js";
import type { SplitManifest } from "../../splits/split-assigner.js";
import type { StatsManifest } from "../../stats/dataset-stats.js";

/** `OUT/manifest.json` of a nightly dataset: tonight's counts, what changed, and the dataset as published. */
export interface NightlyManifest extends Counts, PublishFacts {
  readonly evalshard_version: string;
  readonly pipeline: string;
  /**
   * The snapshot this night published as (`snapshots/<n>…/` keeps it while it is among the kept ones): the
   * number a training run logs to pin its data. Null for a night that changed nothing (the dataset stays
   * the previous snapshot, whose manifest holds its number).
   */
  readonly snapshot: number | null;
  readonly started_at: string;
  readonly finished_at: string;
  readonly format: { readonly name: string; readonly version_field: string; readonly version: string };
  readonly output: { readonly to: string; readonly compression: string; readonly layout: "huggingface-buckets"; readonly buckets: number };
  /** What tonight did to the dataset. */
  readonly night: { readonly added: number; readonly replaced: number; readonly removed: number; readonly unchanged: number; readonly buckets_rewritten: readonly number[] };
  readonly shards: readonly ShardInfo[];
  readonly inputs: readonly InputInfo[];
  /** The service's side of an HTTP pull: runs listed, deferred, ties, stream errors recovered. */
  readonly pull: PullReport | null;
  readonly quarantine: ManifestQuarantine | null;
  readonly filters: Readonly<Record<string, boolean>>;
  /** Issue 39: participation gating by each seat's own card, or by the whole run. */
  readonly gate_by: string;
  readonly untrusted: Readonly<Record<string, string>>;
  readonly quarantined_share: number;
  readonly warnings: readonly string[];
  /** Issue 18: the injection and control-token scan of the texts a plain output keeps, per path. */
  readonly text_audit?: Readonly<Record<string, PathAudit>>;
  /** A training view's night (issue 18): `night` then counts rows, keyed by their record's key. */
  readonly view?: ViewManifest;
  /** Issue 35: the benchmark suites the night decontaminated against, and what each took out. */
  readonly decontamination?: DecontaminationManifest;
  /** A split dataset (issue 19): the split asked for, and the rows and groups each split holds tonight. */
  readonly split?: SplitManifest;
  /** Issue 36: the published dataset's statistics, counted as tonight's engine wrote its rows. */
  readonly stats?: StatsManifest;
  /** The sha256 of the manifest's text without this key, which comes last (`sealedManifestText`): `verify` checks it. */
  readonly manifest_sha256: string;
}
