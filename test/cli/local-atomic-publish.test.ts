import { execFile } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { KILL_AT_STEP } from "../../src/output/local-storage.js";
import { evalshardLeftovers } from "../helpers/local-layout.js";
import { PYTHON } from "../helpers/python.js";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 20: a local publish is atomic for readers. `convert` is SIGKILLed right after every step of its
// publish; before any recovery, manifest.json, pyarrow, DuckDB and datasets.load_dataset each see the whole
// old dataset (65 rows, 4 shards) or the whole new one (40 rows, 3 shards), never a mix or nothing.
const READ = new URL("./read_dataset_dirs.py", import.meta.url).pathname;
const root = tempDir("evalshard-atomic-");
const STEPS = ["in:data", "in:_quarantine", "in:README.md", "in:manifest.json", "snapshot", "linked", "switched", "cleaned", "expired", "done"];
/** A nightly dataset publishes its ledger too (pipeline files list entries in their own order). */
const NIGHT_STEPS = ["in:data", "in:_state", "in:_quarantine", "in:README.md", "in:manifest.json", "snapshot", "linked", "switched", "cleaned", "expired", "done"];

function input(name: string, n: number, tag: string): string {
  const path = join(root, name);
  writeFileSync(path, `${Array.from({ length: n }, (_, i) => JSON.stringify(sftRecord({ run_id: `${tag}_${i}` }))).join("\n")}\n`);
  return path;
}
const OLD = input("old.ndjson", 65, "old");
const NEW = input("new.ndjson", 40, "new");

const cli = (args: readonly string[], env: Record<string, string> = {}) => runCli(args, { env });

interface Seen {
  dir: string;
  manifest_rows?: number;
  manifest_matches_data?: boolean;
  pyarrow_rows?: number;
  duckdb_rows?: number;
  datasets_rows?: number;
}

/** What manifest.json, pyarrow, DuckDB and datasets.load_dataset see in each directory. */
async function readers(dirs: readonly string[]): Promise<Seen[]> {
  const env = { ...process.env, HF_DATASETS_CACHE: join(root, "hf-cache"), HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" };
  const { stdout } = await promisify(execFile)(PYTHON, [READ, ...dirs], { env, maxBuffer: 1 << 24 });
  return stdout.trim().split("\n").map((line) => JSON.parse(line) as Seen);
}

describe("a local publish killed at any step", () => {
  it("leaves readers the whole old or the whole new dataset, before any recovery", { timeout: 600_000 }, async () => {
    const base = join(root, "base");
    expect((await cli(["convert", OLD, "--out", base, "--shard-rows", "20", "--engine", "stages"])).code).toBe(0);
    const dirs: string[] = [];
    for (const step of STEPS) {
      const dir = join(root, `kill-${step.replace(/[^a-z]/gi, "_")}`);
      cpSync(base, dir, { recursive: true, verbatimSymlinks: true });
      const killed = await cli(["convert", NEW, "--out", dir, "--shard-rows", "15", "--engine", "stages", "--snapshot-grace", "0"], { [KILL_AT_STEP]: step });
      expect(killed.signal, `${step}: ${killed.stderr}`).toBe("SIGKILL");
      dirs.push(dir);
    }
    const seen = await readers(dirs);
    STEPS.forEach((step, i) => {
      const rows = i < STEPS.indexOf("switched") ? 65 : 40;
      expect(seen[i], `killed after ${step}`).toEqual({ dir: dirs[i], manifest_rows: rows, manifest_matches_data: true, pyarrow_rows: rows, duckdb_rows: rows, datasets_rows: rows });
    });
    // The next job recovers: the new dataset whole, verified, nothing left behind.
    for (const dir of dirs) {
      expect((await cli(["convert", NEW, "--out", dir, "--shard-rows", "15", "--engine", "stages", "--snapshot-grace", "0"])).code).toBe(0);
      expect((await cli(["verify", dir])).code).toBe(0);
      expect(evalshardLeftovers(dir)).toEqual([]);
    }
  });

  it("the same for a nightly run (its ledger switches with its shards)", { timeout: 600_000 }, async () => {
    // No grace, as for convert: a kill point's state does not depend on how long the publish waited before it.
    const pipeline = (name: string, inputs: string, out: string) => {
      const path = join(root, `${name}.yaml`);
      writeFileSync(path, ["version: 1", `name: ${name}`, "source:", "  kind: files", `  inputs: [${JSON.stringify(inputs)}]`, "output:", `  dir: ${JSON.stringify(out)}`, "  buckets: 4", "  snapshot_grace: 0", ""].join("\n"));
      return path;
    };
    const base = join(root, "night-base");
    expect((await cli(["run", pipeline("night-old", OLD, base)])).code).toBe(0);
    const dirs: string[] = [];
    for (const step of NIGHT_STEPS) {
      const dir = join(root, `night-kill-${step.replace(/[^a-z]/gi, "_")}`);
      cpSync(base, dir, { recursive: true, verbatimSymlinks: true });
      const killed = await cli(["run", pipeline("night-new", NEW, dir)], { [KILL_AT_STEP]: step });
      expect(killed.signal, `${step}: ${killed.stderr}`).toBe("SIGKILL");
      dirs.push(dir);
    }
    const seen = await readers(dirs);
    NIGHT_STEPS.forEach((step, i) => {
      const rows = i < NIGHT_STEPS.indexOf("switched") ? 65 : 40;
      expect(seen[i], `killed after ${step}`).toEqual({ dir: dirs[i], manifest_rows: rows, manifest_matches_data: true, pyarrow_rows: rows, duckdb_rows: rows, datasets_rows: rows });
    });
    for (const dir of dirs) {
      expect((await cli(["run", pipeline("night-new", NEW, dir)])).code).toBe(0);
      expect((await cli(["verify", dir])).code).toBe(0);
      expect(evalshardLeftovers(dir)).toEqual([]);
    }
  });
});
