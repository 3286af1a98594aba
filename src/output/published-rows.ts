import type { PublishedManifest } from "./published-manifest.js";
import type { ShardInfo } from "./shard-format.js";

/** The rows of a set of shards: what a dataset holds, records or a view's rows alike. */
export function rowsOf(shards: readonly Pick<ShardInfo, "rows">[]): number {
  return shards.reduce((sum, shard) => sum + shard.rows, 0);
}

/**
 * The rows a published manifest's shards hold (so a view's rows count as rows), what the shrink guard
 * compares a run with; null where nothing was published, or the manifest is not one evalshard wrote (then
 * there is nothing to compare a run with, and `verify` is the tool that says what is wrong with it).
 */
export function manifestRows(manifest: PublishedManifest | null): number | null {
  if (manifest === null || !manifest.shards.every((s) => Number.isSafeInteger((s as { rows?: unknown } | null)?.rows))) return null;
  return rowsOf(manifest.shards as Pick<ShardInfo, "rows">[]);
}
