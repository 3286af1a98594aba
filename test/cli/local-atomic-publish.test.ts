import { execFile } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { runNightly } from "../../src/jobs/nightly/run-nightly.js";
import { verify } from "../../src/jobs/verify.js";
import { KILL_AT_STEP } from "../../src/output/with-step-signals.js";
import { loadPipeline } from "../../src/pipeline-file/load-pipeline.js";
import { evalshardLeftovers } from "../helpers/local-layout.js";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 20: a local publish is atomic for readers. `convert` is SIGKILLed right after every step of its
// publish; before any recovery, manifest.json, pyarrow, DuckDB and datasets.load_dataset each see the whole
// old dataset (65 rows, 4 shards) or the whole new one (40 rows, 3 shards), never a mix or nothing. The kills
// of convert and of a night are read in one Python process; the recovering job and verify run in this one.
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
  const { stdout } = await promisify(execFile)(PYTHON, [RUN_AND_EXIT, READ, ...dirs], { env, maxBuffer: 1 << 24 });
  return stdout.trim().split("\n").map((line) => JSON.parse(line) as Seen);
}

/** Copies `base` to a directory per step and SIGKILLs `command(dir)` right after that step in it. */
async function killedAtEach(steps: readonly string[], base: string, name: string, command: (dir: string) => readonly string[]): Promise<string[]> {
  const dirs: string[] = [];
  for (const step of steps) {
    const dir = join(root, `${name}-${step.replace(/[^a-z]/gi, "_")}`);
    cpSync(base, dir, { recursive: true, verbatimSymlinks: true });
    const killed = await cli(command(dir), { [KILL_AT_STEP]: step });
    expect(killed.signal, `${step}: ${killed.stderr}`).toBe("SIGKILL");
    dirs.push(dir);
  }
  return dirs;
}

/** Each reader saw the old dataset before the switch, the new one from it. */
function expectOldOrNew(steps: readonly string[], dirs: readonly string[], seen: readonly Seen[]): void {
  steps.forEach((step, i) => {
    const rows = i < steps.indexOf("switched") ? 65 : 40;
    expect(seen[i], `killed after ${step}`).toEqual({ dir: dirs[i], manifest_rows: rows, manifest_matches_data: true, pyarrow_rows: rows, duckdb_rows: rows, datasets_rows: rows });
  });
}

/** The next job recovers: the new dataset whole, verified, nothing left behind. */
async function recovers(dirs: readonly string[], next: (dir: string) => Promise<unknown>): Promise<void> {
  for (const dir of dirs) {
    await next(dir);
    const report = await verify(dir);
    expect(report.findings, dir).toEqual([]);
    expect(report.ok).toBe(true);
    expect(evalshardLeftovers(dir)).toEqual([]);
  }
}

// No grace, as for convert: a kill point's state does not depend on how long the publish waited before it.
const pipeline = (name: string, inputs: string, out: string) => {
  const path = join(root, `${name}-${out.split("/").at(-1)}.yaml`);
  writeFileSync(path, ["version: 1", `name: ${name}`, "source:", "  kind: files", `  inputs: [${JSON.stringify(inputs)}]`, "output:", `  dir: ${JSON.stringify(out)}`, "  buckets: 4", "  snapshot_grace: 0", ""].join("\n"));
  return path;
};
const convertNew = (dir: string) => ["convert", NEW, "--out", dir, "--shard-rows", "15", "--snapshot-grace", "0"];

let convertDirs: string[] = [];
let nightDirs: string[] = [];
let seen: Seen[] = [];
beforeAll(async () => {
  const base = join(root, "base");
  expect((await cli(["convert", OLD, "--out", base, "--shard-rows", "20"])).code).toBe(0);
  convertDirs = await killedAtEach(STEPS, base, "kill", convertNew);
  const nightBase = join(root, "night-base");
  expect((await cli(["run", pipeline("night-old", OLD, nightBase)])).code).toBe(0);
  nightDirs = await killedAtEach(NIGHT_STEPS, nightBase, "night-kill", (dir) => ["run", pipeline("night-new", NEW, dir)]);
  seen = await readers([...convertDirs, ...nightDirs]);
}, 600_000);

describe("a local publish killed at any step", () => {
  it("leaves readers the whole old or the whole new dataset, before any recovery", { timeout: 600_000 }, async () => {
    expectOldOrNew(STEPS, convertDirs, seen.slice(0, STEPS.length));
    await recovers(convertDirs, (dir) => convert({ inputs: [NEW], out: dir, shardRows: 15, snapshotGrace: 0 }));
  });

  it("the same for a nightly run (its ledger switches with its shards)", { timeout: 600_000 }, async () => {
    expectOldOrNew(NIGHT_STEPS, nightDirs, seen.slice(STEPS.length));
    await recovers(nightDirs, async (dir) => runNightly(await loadPipeline(pipeline("night-new", NEW, dir))));
  });
});
