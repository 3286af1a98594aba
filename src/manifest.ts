import type { Counts } from "./core/tally.js";
import type { InputInfo } from "./sources/line-source.js";
import type { ShardInfo } from "./sinks/shard-writer.js";
import type { ViewManifest } from "./views/view-manifest.js";
import type { PathAudit } from "./views/text-audit.js";

/** `OUT/manifest.json`: written last, it is what schedulers and alerts read. */
export interface Manifest extends Counts {
  readonly evalshard_version: string;
  readonly started_at: string;
  readonly finished_at: string;
  readonly format: { readonly name: string; readonly version_field: string; readonly version: string };
  readonly output: {
    readonly to: string;
    readonly compression: string;
    readonly layout: "huggingface";
    readonly split: string;
    /** Which engine wrote it: "parallel" (worker threads, one read) or "stages" (the library's stages). */
    readonly engine: string;
  };
  readonly shards: readonly ShardInfo[];
  readonly inputs: readonly InputInfo[];
  readonly quarantine: { readonly path: string; readonly entries: number } | null;
  readonly options: {
    readonly filters: Readonly<Record<string, boolean>>;
    readonly scorecards: { readonly path: string; readonly gated_runs: number } | null;
    readonly shard_rows: number;
    readonly shard_bytes: number;
    readonly max_line_bytes: number;
    readonly max_quarantined: number;
    readonly accept_later_minor: boolean;
  };
  readonly untrusted: Readonly<Record<string, string>>;
  readonly quarantined_share: number;
  readonly warnings: readonly string[];
  /**
   * Issue 18: per path of the texts a plain output keeps, how many are written, would be changed by the
   * `sanitize` policy and match an injection pattern. Stages engine only, for now.
   */
  readonly text_audit?: Readonly<Record<string, PathAudit>>;
  /** A training view's run (issue 18): what the view made of the kept records. */
  readonly view?: ViewManifest;
}

/** The bookkeeping invariant every manifest must satisfy. */
export function reconciles(m: Counts): boolean {
  const sum = (o: Readonly<Record<string, number | undefined>>) => Object.values(o).reduce<number>((a, b) => a + (b ?? 0), 0);
  return m.records_in === m.records_out + sum(m.dropped) + sum(m.quarantined);
}
