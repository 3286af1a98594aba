import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/flow.js";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { seededRandom } from "../helpers/seeded-random.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// `--compression snappy` is encoded by evalshard's own writer (snappyjs per page): pyarrow, DuckDB and polars
// (the project venv) must read exactly the rows the zstd output of the same input holds, on both executors.
// The corpus has short and repetitive values, random text, and steps longer than snappy's 64 KiB block, over
// several shards and row groups.
const root = tempDir("evalshard-snappy-");
const SCRIPT = new URL("./compare_codecs.py", import.meta.url).pathname;

function corpus(): string {
  const base = readFileSync(`${FIXTURES}records/sft-valid.ndjson`, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const random = seededRandom(22);
  const words = ["offer", "counter", "accept", "walk away", "the deadline", "price", "é", "👋", "\u0000", "\"quoted\""];
  const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(" ");
  const lines: string[] = [];
  for (let i = 0; i < 1500; i++) {
    const record = base[i % base.length] as Record<string, unknown>;
    const long = i % 300 === 7 ? 14_000 : 1 + Math.floor(random() * 40); // a few steps far past 64 KiB
    const steps = [{ turn: 1, action: { type: "speak", text: text(long) } }, { turn: 2, action: { type: "act", n: Math.floor(random() * 1e9) } }];
    lines.push(JSON.stringify({ ...record, run_id: `run-${i}`, trace_steps: steps }));
  }
  const file = join(root, "corpus.ndjson");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

describe("--compression snappy, read back", () => {
  const input = corpus();
  it("pyarrow, DuckDB and polars read the zstd output's rows", async () => {
    const dirs: Record<string, string> = {};
    let rowsOut = 0;
    for (const codec of ["snappy", "zstd"]) {
      dirs[codec] = join(root, codec);
      const r = await spawnCli(["convert", input, "--out", dirs[codec] as string, "--compression", codec, "--shard-rows", "600", "--seats", "all", "--no-filter-participation-gated", "--json"]);
      expect(r.status, r.stderr).toBe(0);
      const manifest = JSON.parse(r.stdout) as { records_out: number; shards: unknown[]; output: { compression: string; engine: string } };
      expect(manifest.output).toMatchObject({ compression: codec });
      expect(manifest.shards.length).toBeGreaterThan(1);
      rowsOut = manifest.records_out;
    }
    expect(rowsOut).toBe(1500);
    const { stdout } = await promisify(execFile)(PYTHON, [RUN_AND_EXIT, SCRIPT, dirs.snappy as string, dirs.zstd as string], { maxBuffer: 1 << 28 });
    const seen = JSON.parse(stdout) as Record<string, { rows: number; equal: boolean }> & { codecs: string[] };
    expect(seen.codecs).toEqual(["SNAPPY"]);
    for (const reader of ["pyarrow", "duckdb", "polars"]) expect(seen[reader], reader).toEqual({ rows: rowsOut, equal: true });
  });
});
