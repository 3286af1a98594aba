import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convertBothCli } from "../helpers/convert-both-cli.js";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { parsePipeline, runNightly } from "../../src/index.js";

// Issue 20: a seed above 2^53 was quarantined as "Too big" (JSON.parse rounds it; zod's .int() refuses it), yet
// the spec gives `seed` no range. Seeds are kept exactly within int64, the INT64 column's range (docs/decisions.md),
// in both executors, in Parquet and in JSONL; one outside int64 is quarantined as `schema`, saying so.
const root = tempDir("evalshard-exact-seed-");
const SEEDS = ["9007199254740993", "9223372036854775807", "-9223372036854775808", "12345678901234567890123", "17"];
/** An SFT line whose seed is the literal `seed` (JSON.stringify would round it). */
const lineWithSeed = (i: number, seed: string) => JSON.stringify(sftRecord({ run_id: `run_${i}` })).replace(/"seed":\d+/, `"seed":${seed}`);
const lines = SEEDS.map((s, i) => lineWithSeed(i, s));
const seedOf = (row: Record<string, unknown>) => String((row.scenario as { seed: unknown }).seed);

describe("scenario.seed beyond 2^53", { timeout: 120_000 }, () => {
  it("Parquet: kept exactly in both executors (INT64); outside int64 quarantined as schema", async () => {
    const o = await convertBothCli(lines);
    expect(o.rows.map(seedOf)).toEqual(["9007199254740993", "9223372036854775807", "-9223372036854775808", "17"]);
    expect(o.manifest.quarantined).toEqual({ schema: 1 });
    expect(o.quarantine).toEqual([{ reason: "schema", detail: expect.stringMatching(/scenario\.seed 12345678901234567890123 is outside the int64 range/), line: 4 }]);
  });

  it("Parquet read by pyarrow: an int64 column holding the exact values", async () => {
    const input = join(root, "in.ndjson");
    writeFileSync(input, `${lines.join("\n")}\n`);
    const out = join(root, "pq");
    const r = await runCli(["convert", input, "--out", out, "--max-quarantined", "1"]);
    expect(r.code, r.stderr).toBe(0);
    const shards = readdirSync(join(out, "data")).filter((f) => f.endsWith(".parquet")).map((f) => join(out, "data", f));
    const script = "import sys, json, pyarrow.parquet as pq\nt = pq.read_table(sys.argv[1])\nprint(json.dumps({'type': str(t.schema.field('scenario').type), 'seeds': [str(s['seed']) for s in t.column('scenario').to_pylist()]}))";
    const read = JSON.parse(execFileSync(PYTHON, [RUN_AND_EXIT, "-c", script, ...shards], { encoding: "utf8" })) as { type: string; seeds: string[] };
    expect(read.type).toMatch(/seed: int64/);
    expect(read.seeds).toEqual(["9007199254740993", "9223372036854775807", "-9223372036854775808", "17"]);
  });

  it.each(["0", "2"])("JSONL (--workers %s): the digits as they came", async (workers) => {
    const input = join(root, "in-jsonl.ndjson");
    writeFileSync(input, `${lines.join("\n")}\n`);
    const out = join(root, `jsonl-${workers}`);
    const r = await runCli(["convert", input, "--out", out, "--to", "jsonl", "--compression", "none", "--workers", workers, "--max-quarantined", "1"]);
    expect(r.code, r.stderr).toBe(0);
    const text = readdirSync(join(out, "data")).map((f) => readFileSync(join(out, "data", f), "utf8")).join("");
    expect([...text.matchAll(/"seed":(-?\d+)/g)].map((m) => m[1])).toEqual(["9007199254740993", "9223372036854775807", "-9223372036854775808", "17"]);
  });

  it("a nightly run (files source) keeps them through its staging, in Parquet and JSONL", async () => {
    const input = join(root, "nightly.ndjson");
    writeFileSync(input, `${lines.join("\n")}\n`);
    for (const to of ["parquet", "jsonl"] as const) {
      const out = join(root, `nightly-${to}`);
      const text = `version: 1\nname: seeds\nsource: {kind: files, inputs: ["${input}"]}\nselect: {seats: all}\nmax_quarantined: 1\noutput: {dir: "${out}", to: ${to}, compression: none}\n`;
      const result = await runNightly(parsePipeline(text, "seeds.yaml", {}), { env: {} });
      expect(result.manifest).toMatchObject({ records_out: 4, quarantined: { schema: 1 } });
      const files = result.manifest.shards.map((s) => join(out, s.path));
      const seeds =
        to === "jsonl"
          ? files.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/"seed":(-?\d+)/g)].map((m) => m[1]))
          : (JSON.parse(execFileSync(PYTHON, [RUN_AND_EXIT, "-c", "import sys, json, pyarrow.parquet as pq\nprint(json.dumps([str(s['seed']) for f in sys.argv[1:] for s in pq.read_table(f).column('scenario').to_pylist()]))", ...files], { encoding: "utf8" })) as string[]);
      expect([...seeds].sort()).toEqual(["-9223372036854775808", "17", "9007199254740993", "9223372036854775807"]);
    }
  });
});
