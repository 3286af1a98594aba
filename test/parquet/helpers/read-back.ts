import { execFile, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gunzipSync, zstdDecompressSync as decompress } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { sqlString } from "../../../src/schema/duckdb-type.js";
import { PYTHON, PYTHON_SETUP_HINT } from "../../helpers/python.js";

const READ_FILES = fileURLToPath(new URL("./read_files.py", import.meta.url));
const READ_BACK = fileURLToPath(new URL("../../helpers/read_back.py", import.meta.url));
const execFileAsync = promisify(execFile);

type Row = Record<string, unknown>;

const pythonCheck = spawnSync(PYTHON, ["-c", "import pyarrow, duckdb, datasets"], { encoding: "utf8" });
/** Python with pyarrow, duckdb and datasets is importable. */
export const pythonReady = pythonCheck.status === 0;
if (!pythonReady && process.env.CI === undefined) {
  console.warn(`Skipping the Python readers of the native Parquet tests: the .venv Python with pyarrow, duckdb and datasets is missing (${PYTHON_SETUP_HINT}). In CI they run and fail.`);
}
/** Whether the Python checks run: when the readers are there, and always in CI, where their absence must fail. */
export const runPython = pythonReady || process.env.CI !== undefined;

/** Rows of each file as pyarrow or Python DuckDB reads them, in one child process. */
export async function readPython(engine: "pyarrow" | "duckdb", files: readonly string[]): Promise<Record<string, { rows: Row[]; schema?: string }>> {
  const { stdout } = await execFileAsync(PYTHON, [READ_FILES, engine, ...files], { maxBuffer: 1 << 30 });
  return JSON.parse(stdout) as Record<string, { rows: Row[]; schema?: string }>;
}

/** pyarrow's `read_schema` of each pair (ours, DuckDB's), compared with `Schema.equals`. */
export async function compareSchemas(pairs: readonly (readonly [string, string])[]): Promise<{ a: string; b: string; equal: boolean }[]> {
  const { stdout } = await execFileAsync(PYTHON, [READ_FILES, "schemas", ...pairs.flat()], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout) as { a: string; b: string; equal: boolean }[];
}

/** A dataset directory (`dir/data/train-*.parquet`) loaded by `datasets.load_dataset`, offline. */
export async function readDatasets(dir: string, cache: string): Promise<{ rows: Row[]; types: Record<string, string> }> {
  const { stdout } = await execFileAsync(PYTHON, [READ_BACK, "datasets", dir], {
    maxBuffer: 1 << 30,
    env: { ...process.env, HF_DATASETS_CACHE: cache, HF_HOME: cache, HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" },
  });
  return JSON.parse(stdout) as { rows: Row[]; types: Record<string, string> };
}

/** Rows as hyparquet reads them (int64 as BigInt, JSON leaves parsed); zstd and gzip pages decompressed here. */
export async function readHyparquet(file: string): Promise<Row[]> {
  return (await parquetReadObjects({
    file: await asyncBufferFromFile(file),
    compressors: { ZSTD: (input: Uint8Array) => decompress(Buffer.from(input.buffer, input.byteOffset, input.byteLength)), GZIP: (input: Uint8Array) => gunzipSync(input) },
  })) as Row[];
}

/** Rows as @duckdb/node-api reads them (`getRowObjectsJson`: int64 as text, JSON as text). */
export async function readNodeDuckdb(files: readonly string[]): Promise<Row[][]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const out: Row[][] = [];
    for (const f of files) out.push((await connection.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(f)})`)).getRowObjectsJson() as Row[]);
    return out;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
