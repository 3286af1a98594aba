// A JSONL and a Parquet convert of the same input load with `datasets.load_dataset` as the same dataset: the
// same features and the same rows (issue 22). JSONL rows are shaped as Parquet rows (src/sinks/tabular-row.ts):
// every column, maps as {key, value} lists, json values as JSON text; the dataset card gives both the features.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { convert } from "../../src/index.js";
import type { Compression } from "../../src/index.js";
import { FIXTURES } from "../helpers/flow.js";
import { PythonBatch } from "../helpers/python-batch.js";
import { tempDir } from "../helpers/temp-dir.js";

const READ_BACK = new URL("../helpers/read_back.py", import.meta.url).pathname;
const root = tempDir("evalshard-jsonl-parquet-");
const cache = join(root, "hf-cache");
// Every load in one Python process: importing datasets costs seconds a start.
const python = new PythonBatch({ HF_DATASETS_CACHE: cache, HF_HOME: cache, HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" }, ["datasets"]);
afterAll(() => python.close());

async function loadDataset(dir: string): Promise<{ rows: Record<string, unknown>[]; types: Record<string, string> }> {
  return JSON.parse(await python.stdout(READ_BACK, ["datasets", dir])) as { rows: Record<string, unknown>[]; types: Record<string, string> };
}

// sft-valid: maps (per_trait), json lists (trace_steps) and an optional struct absent from some records
// (manifest); rl-valid: json inside lists of structs (observation); dpo-valid: nested pairs.
// gzip, not zstd: `datasets` reads .jsonl.zst only with the `zstandard` package, which the venv lacks.
describe.each(["sft-valid", "rl-valid", "dpo-valid"])("%s", (input) => {
  it.each(["none", "gzip"] satisfies Compression[])("JSONL (%s) and Parquet give the same features and rows", { timeout: 120_000 }, async (compression) => {
    const inputs = [`${FIXTURES}records/${input}.ndjson`];
    const parquetDir = join(root, `${input}-${compression}-parquet`);
    const jsonlDir = join(root, `${input}-${compression}-jsonl`);
    await convert({ inputs, out: parquetDir, seats: "all" });
    await convert({ inputs, out: jsonlDir, seats: "all", to: "jsonl", compression });
    const [parquet, jsonl] = await Promise.all([loadDataset(parquetDir), loadDataset(jsonlDir)]);
    expect(parquet.rows.length).toBeGreaterThan(0);
    expect(jsonl.types).toEqual(parquet.types);
    expect(jsonl.rows).toEqual(parquet.rows);
  });
});
