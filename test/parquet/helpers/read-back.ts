import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gunzipSync, zstdDecompressSync as decompress } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { sqlString } from "../../../src/schema/duckdb-type.js";
import { PYTHON, PYTHON_SETUP_HINT, RUN_AND_EXIT } from "../../helpers/python.js";
import type { PythonBatch } from "../../helpers/python-batch.js";

const READ_FILES = fileURLToPath(new URL("./read_files.py", import.meta.url));
const READ_BACK = fileURLToPath(new URL("../../helpers/read_back.py", import.meta.url));
const execFileAsync = promisify(execFile);

type Row = Record<string, unknown>;

/**
 * The venv's Python is there. Its readers are not imported to find out (a start importing pyarrow and datasets
 * costs seconds, at every import of this module): the venv phase installs them with it, and a test reading with
 * them fails naming the missing one.
 */
export const pythonReady = existsSync(PYTHON);
if (!pythonReady && process.env.CI === undefined) {
  console.warn(`Skipping the Python readers of the native Parquet tests: ${PYTHON} is missing (${PYTHON_SETUP_HINT}). In CI they run and fail.`);
}
/** Whether the Python checks run: when the venv is there, and always in CI, where its absence must fail. */
export const runPython = pythonReady || process.env.CI !== undefined;

/** `python SCRIPT ARGS...`'s stdout: in `batch` when given (its imports already paid), else a child process of its own. */
async function pythonStdout(script: string, args: readonly string[], batch: PythonBatch | undefined, env?: NodeJS.ProcessEnv): Promise<string> {
  if (batch !== undefined) return batch.stdout(script, args);
  return (await execFileAsync(PYTHON, [RUN_AND_EXIT, script, ...args], { maxBuffer: 1 << 30, ...(env === undefined ? {} : { env }) })).stdout;
}

/** Rows of each file as pyarrow or Python DuckDB reads them, in one child process (or `batch`). */
export async function readPython(engine: "pyarrow" | "duckdb", files: readonly string[], batch?: PythonBatch): Promise<Record<string, { rows: Row[]; schema?: string }>> {
  return JSON.parse(await pythonStdout(READ_FILES, [engine, ...files], batch)) as Record<string, { rows: Row[]; schema?: string }>;
}

/** pyarrow's `read_schema` of each pair (ours, DuckDB's), compared with `Schema.equals`. */
export async function compareSchemas(pairs: readonly (readonly [string, string])[], batch?: PythonBatch): Promise<{ a: string; b: string; equal: boolean }[]> {
  return JSON.parse(await pythonStdout(READ_FILES, ["schemas", ...pairs.flat()], batch)) as { a: string; b: string; equal: boolean }[];
}

/** A dataset directory (`dir/data/train-*.parquet`) loaded by `datasets.load_dataset`, offline (in `batch`: with its cache and offline environment). */
export async function readDatasets(dir: string, cache: string, batch?: PythonBatch): Promise<{ rows: Row[]; types: Record<string, string> }> {
  const env = { ...process.env, ...datasetsEnv(cache) };
  return JSON.parse(await pythonStdout(READ_BACK, ["datasets", dir], batch, env)) as { rows: Row[]; types: Record<string, string> };
}

/** The environment `datasets` reads offline with, its cache in `cache`. */
export const datasetsEnv = (cache: string) => ({ HF_DATASETS_CACHE: cache, HF_HOME: cache, HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" });

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
