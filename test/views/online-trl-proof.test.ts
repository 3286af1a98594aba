import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { viewEnv } from "../../src/views/view-env.js";
import { VIEWS } from "../../src/views/views.js";
import { PYTHON, PYTHON_SETUP_HINT, RUN_AND_EXIT } from "../helpers/python.js";
import { tempDir } from "../helpers/temp-dir.js";
import { demoTrajectory } from "./helpers/view-records.js";
import { writeViewDataset } from "./helpers/write-view-dataset.js";

// trl-stepwise trains in TRL's PRMTrainer and trl-prompt-only in GRPOTrainer (test/python/online_trl_check.py).
const CHECK = fileURLToPath(new URL("../python/online_trl_check.py", import.meta.url));
const RL = fileURLToPath(new URL("../../fixtures/records/views-rl.ndjson", import.meta.url));
const ready = existsSync(PYTHON);
if (!ready && process.env.CI === undefined) console.warn(`Skipping the PRM and GRPO proof: ${PYTHON} is missing (${PYTHON_SETUP_HINT}). In CI it runs and fails.`);
const itPython = ready || process.env.CI !== undefined ? it : it.skip;
const execFileAsync = promisify(execFile);
const root = tempDir("evalshard-online-trl-");
const hfCache = join(root, "hf-cache");

/** One run of the harness (importing torch and TRL is most of its time): its report per directory, failed checks included. */
async function check(cases: readonly (readonly [string, string])[]): Promise<Map<string, Record<string, unknown>>> {
  const { stdout } = await execFileAsync(PYTHON, [RUN_AND_EXIT, CHECK, ...cases.flat()], {
    cwd: fileURLToPath(new URL("../python/", import.meta.url)),
    maxBuffer: 1 << 26,
    timeout: 900_000,
    env: { ...process.env, HF_HOME: hfCache, HF_DATASETS_CACHE: hfCache, HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1", CUDA_VISIBLE_DEVICES: "", TRL_EXPERIMENTAL_SILENCE: "1" },
  }).catch((error: { stdout?: string }) => {
    if (typeof error.stdout !== "string" || !error.stdout.includes("ONLINE_CHECK ")) throw error;
    return { stdout: error.stdout };
  });
  const reports = stdout.split("\n").filter((l) => l.startsWith("ONLINE_CHECK ")).map((l) => JSON.parse(l.slice(13)) as Record<string, unknown>);
  return new Map(reports.map((r) => [r.dir as string, r]));
}

describe("trl-stepwise trains in PRMTrainer, trl-prompt-only in GRPOTrainer (two steps on tiny local models)", () => {
  const stepwise = join(root, "trl-stepwise");
  const promptOnly = join(root, "trl-prompt-only");
  const kept = join(root, "keep-trl-stepwise");
  const rows = new Map<string, number>();
  let reports: Map<string, Record<string, unknown>> | Error = new Error("the harness did not run");
  beforeAll(async () => {
    // Several shards: the card's `data/train-*` pattern is what finds them.
    for (const [dir, view] of [[stepwise, "trl-stepwise"], [promptOnly, "trl-prompt-only"]] as const) {
      const { manifest } = await convert({ inputs: [RL], out: dir, view, shardRows: view === "trl-stepwise" ? 1 : 4 });
      rows.set(dir, manifest.view?.rows_out ?? -1);
    }
    // Texts kept as the service wrote them (the row builders directly: the CLI cannot): the check must fail.
    const trajectories = [demoTrajectory("run-a", 9, true), demoTrajectory("run-b", 9, true)];
    await writeViewDataset(kept, VIEWS["trl-stepwise"], trajectories, viewEnv({ text: "keep" }), 16);
    if (!ready && process.env.CI === undefined) return;
    reports = await check([[stepwise, "trl-stepwise"], [promptOnly, "trl-prompt-only"], [kept, "trl-stepwise"]]).catch((error: unknown) => error as Error);
  }, 900_000);

  for (const [name, dir] of [["trl-stepwise: PRMTrainer", stepwise], ["trl-prompt-only: GRPOTrainer", promptOnly]] as const) {
    itPython(`${name}, two steps that change the weights`, () => {
      if (reports instanceof Error) throw reports;
      const report = reports.get(dir);
      expect(report?.error).toBeUndefined();
      expect(report?.rows).toBe(rows.get(dir));
      expect(report?.train).toMatchObject({ steps: 2 });
      expect((report?.train as { tensors_changed: number }).tensors_changed).toBeGreaterThan(0);
      console.log(JSON.stringify(report));
    });
  }

  itPython("the check catches control tokens in stepwise texts kept as written", () => {
    if (reports instanceof Error) throw reports;
    expect(reports.get(kept)?.error).toMatch(/a control token survived/);
  });
});
