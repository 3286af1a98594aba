import { REJECTED_DIR } from "./publish-guard.js";

/**
 * What tells a path of an output evalshard's own besides the path itself (issue 40). A name alone is never
 * enough where a user could have chosen it too (`data`, `README.md`, `manifest.json`, `snapshots`): those
 * count as evalshard's only through a marker it writes (a link into `.evalshard-current`, a published
 * snapshot that names them).
 */
export interface OwnFacts {
  /** A local top-level entry that is a symbolic link: where it points (null: not a link). */
  readonly link: string | null;
  /**
   * The top-level entries of the dataset evalshard published there (locally, those linked through
   * `.evalshard-current`; on S3, those the snapshot pointer's files name); null where it never published.
   */
  readonly published: readonly string[] | null;
}

/** `_rejected/<UTC time>-<hex>`: a refused attempt's folder ({@link rejectedName}). */
const REJECTED_NAME = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;
/** Where a partitioned night's parts go under the pipeline's output (issue 37). */
export const PARTS_DIR = "_parts";
const PART_DIR = /^part-\d+-of-\d+(\.snapshots)?$/;
/** A snapshot folder: `000007-3f9a1c` on S3 (its own marker), `000007` or `000007.pending` in a local nightly dataset. */
const S3_SNAPSHOT = /^\d{6}-[0-9a-f]{6}$/;
const LOCAL_SNAPSHOT = /^\d{6}(\.pending)?$/;

/**
 * Whether evalshard wrote `path` (relative to the output's root, "/"-separated; a local entry is judged by
 * its top-level name, and `_rejected/` and `snapshots/` by their children). The one place that knows
 * evalshard's layout markers, for the `--out` check ({@link Storage.foreignFile}): a layout change (where
 * snapshots live, a fencing file) is a line here.
 */
export function isEvalshardOwn(path: string, facts: OwnFacts): boolean {
  const [top = "", child] = path.split("/");
  // Locally .evalshard-current, -snapshots/, -tmp-*, -old-*, .evalshard.lock; on S3 .evalshard/ (pointer, lease).
  if (top.startsWith(".evalshard")) return true;
  if (top === REJECTED_DIR) return child !== undefined && REJECTED_NAME.test(child);
  // A partitioned night's parts (issue 37): their datasets and what each staged, which `commit` merges.
  if (top === PARTS_DIR) return child !== undefined && (PART_DIR.test(child) || child === "nights");
  if (facts.link !== null) return facts.link === `.evalshard-current/${top}`;
  if (top === "snapshots" && child !== undefined) return S3_SNAPSHOT.test(child) || (facts.published !== null && LOCAL_SNAPSHOT.test(child));
  // On S3 the root copies of the current snapshot's top-level files (README.md, manifest.json).
  return child === undefined && facts.published !== null && facts.published.includes(top);
}
