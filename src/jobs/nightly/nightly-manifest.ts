import type { PullReport } from "../../pull/index.js";
import type { ManifestBase, ManifestSections, PublishFacts } from "../../output/manifest.js";

/** `OUT/manifest.json` of a nightly dataset: tonight's counts, what changed, and the dataset as published. */
export interface NightlyManifest extends ManifestBase, PublishFacts, ManifestSections {
  readonly pipeline: string;
  /**
   * The snapshot this night published as (`snapshots/<n>…/` keeps it while it is among the kept ones): the
   * number a training run logs to pin its data. Null for a night that changed nothing (the dataset stays
   * the previous snapshot, whose manifest holds its number).
   */
  readonly snapshot: number | null;
  readonly output: { readonly to: string; readonly compression: string; readonly layout: "huggingface-buckets"; readonly buckets: number };
  /** What tonight did to the dataset (a view's night counts rows). */
  readonly night: { readonly added: number; readonly replaced: number; readonly removed: number; readonly unchanged: number; readonly buckets_rewritten: readonly number[] };
  /** The service's side of an HTTP pull: runs listed, deferred, ties, stream errors recovered. */
  readonly pull: PullReport | null;
  readonly filters: Readonly<Record<string, boolean>>;
  /** Issue 39: participation gating by each seat's own card, or by the whole run. */
  readonly gate_by: string;
}
