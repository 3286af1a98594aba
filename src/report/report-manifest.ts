import type { ManifestSections } from "../output/manifest.js";

/**
 * What the report reads of a manifest: the parts a conversion's and a nightly's manifests share, and their
 * optional sections. Read from files written by any version, so every section but the counts may be absent.
 */
export interface ReportManifest extends ManifestSections {
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
}

/** A kept snapshot's manifest, and the name its night is shown by. */
export interface ReportNight {
  readonly label: string;
  readonly manifest: ReportManifest;
}
