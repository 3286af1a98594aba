import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, night } from "./support.js";

// Issue 37: `partition: auto` takes the part from the scheduler's environment; `partition_by: scenario`
// keeps a scenario's runs in one part.
const root = tempDir("evalshard-partition-auto-");
let n = 0;
const out = () => join(root, `o${n++}`);
const auto = (text: string) => text.replace("partition: ${EVALSHARD_PARTITION:-}", "partition: ${EVALSHARD_PARTITION:-auto}");
const byScenario = (text: string) => auto(text).replace("  concurrency: 4\n", "  concurrency: 4\n  partition_by: scenario\n");

/** Every JSONL row of a dataset's shards, as (scenario, row text) pairs. */
function rowsOf(dir: string): { scenario: string; line: string }[] {
  if (!existsSync(join(dir, "data"))) return [];
  return readdirSync(join(dir, "data")).flatMap((f) =>
    readFileSync(join(dir, "data", f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => ({ scenario: (JSON.parse(line) as { scenario: { campaign_id: string } }).scenario.campaign_id, line })),
  );
}

describe("--partition auto and --partition-by", () => {
  it("reads k and N from a Slurm array, an AWS Batch array, or k from an Indexed Job with N given", async () => {
    const emu = await emulator({ seed: 41, runs: 40 });
    const dir = out();
    const slurm = await night("nightly-sft", envFor(emu, dir, { SLURM_ARRAY_TASK_ID: "2", SLURM_ARRAY_TASK_COUNT: "4" }), true, auto);
    expect(slurm.outDir).toBe(join(dir, "nightly-sft", "_parts", "part-2-of-4"));
    const batch = await night("nightly-sft", envFor(emu, dir, { AWS_BATCH_JOB_ARRAY_INDEX: "1", AWS_BATCH_JOB_ARRAY_SIZE: "3" }), true, auto);
    expect(batch.outDir).toBe(join(dir, "nightly-sft", "_parts", "part-1-of-3"));
    const k8s = await night("nightly-sft", envFor(emu, dir, { JOB_COMPLETION_INDEX: "3", EVALSHARD_PARTITION: "auto/4" }), true, auto);
    expect(k8s.outDir).toBe(join(dir, "nightly-sft", "_parts", "part-3-of-4"));
    // A rerun of Slurm task 1 alone (`--array=1`: a count of 1) gives N itself.
    const rerun = await night("nightly-sft", envFor(emu, dir, { SLURM_ARRAY_TASK_ID: "1", SLURM_ARRAY_TASK_COUNT: "1", EVALSHARD_PARTITION: "auto/4" }), true, auto);
    expect(rerun.outDir).toBe(join(dir, "nightly-sft", "_parts", "part-1-of-4"));
  });

  it("a variable the scheduler did not set is a ConfigError naming it, and nothing is written", async () => {
    const emu = await emulator({ seed: 42, runs: 10 });
    const dir = out();
    const fails = (env: Record<string, string>) => night("nightly-sft", envFor(emu, dir, env), true, auto);
    await expect(fails({})).rejects.toThrow(ConfigError);
    await expect(fails({})).rejects.toThrow(/SLURM_ARRAY_TASK_ID.*JOB_COMPLETION_INDEX/);
    await expect(fails({ SLURM_ARRAY_TASK_ID: "0" })).rejects.toThrow(/SLURM_ARRAY_TASK_COUNT/);
    await expect(fails({ JOB_COMPLETION_INDEX: "0" })).rejects.toThrow(/JOB_COMPLETION_INDEX gives no count.*auto\/N/);
    await expect(fails({ SLURM_ARRAY_TASK_ID: "x", SLURM_ARRAY_TASK_COUNT: "4" })).rejects.toThrow(/SLURM_ARRAY_TASK_ID.*"x"/);
    await expect(fails({ SLURM_ARRAY_TASK_ID: "4", SLURM_ARRAY_TASK_COUNT: "4" })).rejects.toThrow(/"4\/4"/);
    expect(() => readdirSync(dir)).toThrow();
  });

  it("by scenario: each scenario's rows in one part, the parts' union the single job's rows", async () => {
    // 400 runs are 13 scenarios: every part gets some (a part with none publishes nothing: min_records).
    const emu = await emulator({ seed: 43, runs: 400 });
    const single = out();
    await night("nightly-sft", envFor(emu, single));
    const parts = out();
    const partOf = new Map<string, number>();
    const union: string[] = [];
    for (let k = 0; k < 4; k++) {
      const r = await night("nightly-sft", envFor(emu, parts, { SLURM_ARRAY_TASK_ID: String(k), SLURM_ARRAY_TASK_COUNT: "4" }), true, byScenario);
      expect(r.manifest.pull?.partition).toEqual({ index: k, count: 4, by: "scenario" });
      for (const { scenario, line } of rowsOf(r.outDir)) {
        expect(partOf.get(scenario) ?? k).toBe(k);
        partOf.set(scenario, k);
        union.push(line);
      }
    }
    expect(new Set(partOf.values()).size).toBeGreaterThan(1);
    expect(union.sort()).toEqual(rowsOf(join(single, "nightly-sft")).map((r) => r.line).sort());
    expect(datasetOf(join(single, "nightly-sft")).ledger.length).toBeGreaterThan(0);
  });
});
