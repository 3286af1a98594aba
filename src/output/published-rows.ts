import type { ShardInfo } from "./shard-format.js";
import type { Files } from "./storage.js";
import { readText } from "./write-text.js";

/** The rows of a set of shards: what a dataset holds, records or a view's rows alike. */
export function rowsOf(shards: readonly Pick<ShardInfo, "rows">[]): number {
  return shards.reduce((sum, shard) => sum + shard.rows, 0);
}

/**
 * The rows the dataset published at `files` holds, by its `manifest.json` (the shards' rows, so a view's
 * rows count as rows); null where nothing was published, or the manifest is not one evalshard wrote (then
 * there is nothing to compare a run with, and `verify` is the tool that says what is wrong with it).
 */
export async function publishedRows(files: Files): Promise<number | null> {
  return manifestRows(await readText(files, "manifest.json"));
}

/** The rows a published `manifest.json`'s text counts, as {@link publishedRows} reads them. */
export function manifestRows(text: string | null): number | null {
  if (text === null) return null;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return null;
  }
  const shards = (manifest as { shards?: unknown } | null)?.shards;
  if (!Array.isArray(shards) || !shards.every((s) => Number.isSafeInteger((s as { rows?: unknown } | null)?.rows))) return null;
  return rowsOf(shards as Pick<ShardInfo, "rows">[]);
}
