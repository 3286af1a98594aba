import { stat } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError, IoError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import type { Manifest } from "../output/manifest.js";
import { LocalFiles } from "../output/local-files.js";
import { outputLocation } from "../output/output-location.js";
import { requiredManifest } from "../output/published-manifest.js";
import { storageFor } from "../output/storage-for.js";
import { snapshotPath } from "./snapshot-path.js";
import { previewJsonl, type ShardPreview } from "./preview-jsonl.js";
import { previewParquet } from "./preview-parquet.js";
import { datasetPath } from "../output/dataset-path.js";
import { storedShard, type ShardInput } from "./shard-input.js";

export interface InspectResult {
  readonly path: string;
  readonly manifest: Manifest | null;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly rows: readonly Record<string, unknown>[];
  readonly totalRows: number;
}

/**
 * Summarises an output directory (manifest, schema, first rows) or a single shard (schema, first rows);
 * with `snapshot`, the kept snapshot of that number of a nightly directory. An `s3://BUCKET/PREFIX` dataset is
 * read through its storage (the current snapshot; each shard fetched whole, as Parquet is read from its
 * footer). Values are plain JSON: int64 as numbers, JSON columns as they were written.
 */
export async function inspect(path: string, options: { rows?: number; snapshot?: number } = {}): Promise<InspectResult> {
  const limit = Math.max(0, Math.floor(options.rows ?? 5));
  const stored = outputLocation(path).kind === "s3";
  if (stored && options.snapshot !== undefined) throw new ConfigError(`inspect --snapshot reads a local nightly directory; ${path} is on object storage`);
  if (options.snapshot !== undefined) path = await snapshotPath(path, options.snapshot); // issue 21: a kept night
  if (!stored) {
    const info = await ioStep(path, "inspect", () => stat(path));
    if (!info.isDirectory()) return { path, manifest: null, ...(await previewShards([path], limit)) };
  }
  const files = stored ? await storageFor(path) : new LocalFiles(path);
  const manifest = await requiredManifest<Manifest>(files);
  const shards = manifest.shards.map((s) => shardAt(path, s.path));
  return { path, manifest, ...(await previewShards(stored ? shards.map((s) => storedShard(files, s)) : shards.map((s) => join(path, s)), limit)) };
}

/** A listed shard's path in the dataset ({@link datasetPath}); a path that leaves it is refused, never opened. */
function shardAt(location: string, path: string): string {
  const at = datasetPath(path)?.read ?? null;
  if (at === null) throw new IoError(`${location}/manifest.json lists the shard ${JSON.stringify(path)}, a path outside the dataset (evalshard verify reports it)`, `${location}/manifest.json`);
  return at;
}

/** The first `limit` rows of shards and their row count: Parquet's reader when every one is a `.parquet`, else JSON Lines'. */
export function previewShards(files: readonly (string | ShardInput)[], limit: number): Promise<ShardPreview> {
  const name = (f: string | ShardInput) => (typeof f === "string" ? f : f.name);
  return files.every((f) => name(f).endsWith(".parquet")) ? previewParquet(files, limit) : previewJsonl(files, limit);
}
