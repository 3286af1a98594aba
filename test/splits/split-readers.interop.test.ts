import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { convert, verify } from "../../src/index.js";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { sftRecord } from "../helpers/records.js";
import { tempDir } from "../helpers/temp-dir.js";

const READ = fileURLToPath(new URL("./read_splits.py", import.meta.url));
const root = tempDir("evalshard-split-readers-");
const env = { ...process.env, HF_HOME: join(root, "hf"), HF_DATASETS_CACHE: join(root, "hf"), HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" };

interface ReadBack {
  readonly datasets: Record<string, number>;
  readonly pyarrow: Record<string, number>;
  readonly duckdb: Record<string, number>;
  readonly misplaced: number;
}

async function splitDataset(name: string, campaigns: number, fractions: Record<string, number>, seed: string) {
  const out = join(root, name);
  const input = `${out}.ndjson`;
  const records = Array.from({ length: campaigns * 3 }, (_, i) =>
    JSON.stringify(sftRecord({ run_id: `run-${Math.floor(i / 3)}`, scenario: { campaign_id: `camp-${i % campaigns}`, seed: 1 }, seat: { seat_index: i % 3, role: "r", agent_key_id: "ak" } })),
  );
  writeFileSync(input, records.join("\n") + "\n");
  // Parquet, the default output, with small shards so a split has several.
  const { manifest } = await convert({ inputs: [input], out, split: fractions, splitSeed: seed, shardRows: 20 });
  const read = JSON.parse(execFileSync(PYTHON, [RUN_AND_EXIT, READ, out, seed, JSON.stringify(fractions)], { env, encoding: "utf8", maxBuffer: 1 << 26 })) as ReadBack;
  return { out, manifest, read };
}

describe("a split dataset read back by datasets, pyarrow and DuckDB", () => {
  it("load_dataset(DIR) returns a DatasetDict of the named splits with the manifest's counts", async () => {
    const fractions = { train: 0.9, validation: 0.05, test: 0.05 };
    const { out, manifest, read } = await splitDataset("three", 60, fractions, "s1");
    const counts = Object.fromEntries(Object.entries(manifest.split!.splits).map(([name, s]) => [name, s.rows]));
    // Parquet splits run on the parallel engine, the default one.
    expect(manifest.output.engine).toBe("parallel");
    expect(Object.keys(read.datasets)).toEqual(["train", "validation", "test"]);
    expect(read.datasets).toEqual(counts);
    expect(read.pyarrow).toEqual(counts);
    expect(read.duckdb).toEqual(counts);
    expect(read.misplaced).toBe(0);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(180);
    expect(manifest.shards.filter((s) => s.split === "train").length).toBeGreaterThan(1);
    expect((await verify(out)).ok).toBe(true);
  }, 120_000);

  it("a split no group fell in is reported empty and left out of the card's configs, which datasets cannot load", async () => {
    // Three campaigns and a 0.1% split: with this seed no campaign lands in `holdout` (the manifest says so).
    const fractions = { train: 0.999, holdout: 0.001 };
    const { out, manifest, read } = await splitDataset("empty", 3, fractions, "s2");
    expect(manifest.output.engine).toBe("parallel");
    expect(manifest.split!.splits.holdout).toEqual({ rows: 0, groups: 0, row_fraction: 0, group_fraction: 0 });
    // datasets refuses an empty split ("corresponds to no data"): the card lists the splits that hold rows.
    expect(read.datasets).toEqual({ train: 9 });
    const card = readFileSync(join(out, "README.md"), "utf8");
    expect(card).not.toMatch(/split: holdout/);
    expect(card).toMatch(/No group fell in `holdout`/);
    expect(card).toMatch(/\| holdout \| 0\.1% \| 0 \| 0\.0% \| 0 \| 0\.0% \|/);
    expect(read.pyarrow).toEqual({ train: 9, holdout: 0 });
    expect(read.duckdb).toEqual({ train: 9, holdout: 0 });
  }, 120_000);
});
