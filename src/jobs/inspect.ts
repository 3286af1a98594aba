import { readFile, stat } from "node:fs/promises";
import { loadDuckDB } from "../duckdb/load-duckdb.js";
import { join } from "node:path";
import { IoError } from "../core/errors.js";
import type { Manifest } from "../output/manifest.js";
import { snapshotPath } from "./snapshot-path.js";

export interface InspectResult {
  readonly path: string;
  readonly manifest: Manifest | null;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly rows: readonly Record<string, unknown>[];
  readonly totalRows: number;
}

/**
 * Summarises an output directory (manifest, schema, first rows) or a single shard (schema, first rows);
 * with `snapshot`, the kept snapshot of that number of a nightly directory.
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
  const { columns, rows, totalRows } = await readShards(files, options.rows ?? 5);
  return { path, manifest, columns, rows, totalRows };
}

async function readShards(files: readonly string[], limit: number) {
  const instance = await (await loadDuckDB()).DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const list = `[${files.map((f) => `'${f.replaceAll("'", "''")}'`).join(", ")}]`;
    const from = files.every((f) => f.endsWith(".parquet"))
      ? `read_parquet(${list})`
      : `read_json(${list}, format = 'newline_delimited')`;
    const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`);
    const columns = described.getRowObjectsJson().map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
    const rows = (await connection.runAndReadAll(`SELECT * FROM ${from} LIMIT ${Math.max(0, Math.floor(limit))}`)).getRowObjectsJson();
    const count = (await connection.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM ${from}`)).getRowObjectsJson()[0]?.n;
    return { columns, rows, totalRows: Number(count ?? 0) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
