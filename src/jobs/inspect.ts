import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { IoError } from "../core/errors.js";
import type { Manifest } from "../output/manifest.js";
import { snapshotPath } from "./snapshot-path.js";
import { previewJsonl } from "./preview-jsonl.js";
import { previewParquet } from "./preview-parquet.js";

export interface InspectResult {
  readonly path: string;
  readonly manifest: Manifest | null;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly rows: readonly Record<string, unknown>[];
  readonly totalRows: number;
}

/**
 * Summarises an output directory (manifest, schema, first rows) or a single shard (schema, first rows);
 * with `snapshot`, the kept snapshot of that number of a nightly directory. Values are plain JSON: int64 as
 * numbers, JSON columns as they were written.
 */
export async function inspect(path: string, options: { rows?: number; snapshot?: number } = {}): Promise<InspectResult> {
  if (options.snapshot !== undefined) path = await snapshotPath(path, options.snapshot); // issue 21: a kept night
  const info = await stat(path).catch((error: Error) => {
    throw new IoError(`Cannot inspect ${JSON.stringify(path)}: ${error.message}`, path, { cause: error });
  });
  let manifest: Manifest | null = null;
  let files: string[];
  if (info.isDirectory()) {
    const manifestPath = join(path, "manifest.json");
    const text = await readFile(manifestPath, "utf8").catch((error: Error) => {
      throw new IoError(`${JSON.stringify(path)} is not an evalshard output: cannot read ${JSON.stringify(manifestPath)}: ${error.message}`, manifestPath, { cause: error });
    });
    manifest = JSON.parse(text) as Manifest;
    files = manifest.shards.map((s) => join(path, s.path));
  } else {
    files = [path];
  }
  const limit = Math.max(0, Math.floor(options.rows ?? 5));
  const { columns, rows, totalRows } = files.every((f) => f.endsWith(".parquet")) ? await previewParquet(files, limit) : await previewJsonl(files, limit);
  return { path, manifest, columns, rows, totalRows };
}
