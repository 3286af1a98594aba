import type { PathAudit } from "../views/text-audit.js";
import type { ViewManifest } from "../views/view-manifest.js";
import type { SplitManifest } from "../splits/split-assigner.js";
import type { StatsManifest } from "../stats/dataset-stats.js";

/**
 * What the report reads of a manifest: the parts a conversion's and a nightly's manifests share, and their
 * optional sections. Read from files written by any version, so every section but the counts may be absent.
 */
export interface ReportManifest {
  readonly evalshard_version?: string;
  readonly pipeline?: string;
  readonly snapshot?: number | null;
  readonly finished_at?: string;
  readonly format?: { readonly name: string; readonly version: string };
  readonly records_in: number;
  readonly records_out: number;
  readonly dropped: Readonly<Record<string, number>>;
  readonly quarantined: Readonly<Record<string, number>>;
  readonly stream_errors?: number;
  readonly shards: readonly { readonly path: string; readonly rows: number; readonly bytes: number; readonly split?: string }[];
  readonly night?: { readonly added: number; readonly replaced: number; readonly removed: number; readonly unchanged: number };
  readonly warnings?: readonly string[];
  readonly text_audit?: Readonly<Record<string, PathAudit>>;
  readonly view?: ViewManifest;
  readonly split?: SplitManifest;
  /** Issue 36: the dataset's statistics, counted as its rows were written (absent in older manifests). */
  readonly stats?: StatsManifest;
}

/** A kept snapshot's manifest, and the name its night is shown by. */
export interface ReportNight {
  readonly label: string;
  readonly manifest: ReportManifest;
}
