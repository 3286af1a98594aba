import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { RlContext } from "../../src/views/rl-context.js";
import { viewEnv } from "../../src/views/view-env.js";
import type { ViewName } from "../../src/views/view.js";
import { VIEWS } from "../../src/views/views.js";
import { tempDir } from "../helpers/temp-dir.js";
import { demoPairs, demoTrajectory } from "./helpers/view-records.js";
import { writeViewDataset } from "./helpers/write-view-dataset.js";

// The project's virtualenv (see test/python/requirements-trl.txt); the infra set-up creates it.
const PYTHON = fileURLToPath(new URL("../../.venv/bin/python", import.meta.url));
const CHECK = fileURLToPath(new URL("../python/trl_check.py", import.meta.url));
const ready = existsSync(PYTHON);
if (!ready && process.env.CI === undefined) console.warn(`Skipping the TRL proof: ${PYTHON} is missing (pip install -r test/python/requirements-trl.txt into .venv). In CI it runs and fails.`);
const itPython = ready || process.env.CI !== undefined ? it : it.skip;
const execFileAsync = promisify(execFile);

const root = tempDir("evalshard-trl-proof-");
const hfCache = join(root, "hf-cache");

/** Trajectories in the emulator's shape, half of them with an injection or control token in every text. */
const trajectories = [demoTrajectory("run-a", 9, false), demoTrajectory("run-b", 9, true), demoTrajectory("run-c", 9, false), demoTrajectory("run-d", 9, true)];
const pairs = [demoPairs(trajectories[0]!, trajectories[2]!), demoPairs(trajectories[1]!, trajectories[3]!), demoPairs(trajectories[3]!, trajectories[0]!)];

async function check(dir: string, view: ViewName, train: boolean): Promise<Record<string, unknown>> {
  const { stdout } = await execFileAsync(PYTHON, [CHECK, dir, view, ...(train ? ["--train"] : [])], {
    maxBuffer: 1 << 26,
    timeout: 600_000,
    env: { ...process.env, HF_HOME: hfCache, HF_DATASETS_CACHE: hfCache, HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1", CUDA_VISIBLE_DEVICES: "" },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) as string) as Record<string, unknown>;
}

const CASES: readonly { view: ViewName; train: boolean }[] = [
  { view: "trl-prompt-completion", train: true },
  { view: "trl-kto", train: true },
  { view: "trl-preference", train: true },
  { view: "openai-sft", train: false },
  { view: "openai-dpo", train: false },
  { view: "rl-steps", train: false },
];

describe("the views load in datasets, render in a ChatML template and train in TRL", () => {
  const written = new Map<ViewName, { dir: string; rows: number }>();
  beforeAll(async () => {
    for (const { view } of CASES) {
      const v = VIEWS[view];
      const context = new RlContext();
      for (const t of trajectories) context.add(t);
      const env = viewEnv({}, v.needsContext ? context : null);
      const dir = join(root, view);
      // Two shards, so the card's `data/train-*` pattern is what finds them.
      const { tally } = await writeViewDataset(dir, v, v.from === "rl" ? trajectories : pairs, env, 16);
      written.set(view, { dir, rows: tally.rows_out });
    }
  });

  for (const { view, train } of CASES) {
    itPython(`${view}${train ? ": two training steps" : ""}`, { timeout: 600_000 }, async () => {
      const { dir, rows } = written.get(view)!;
      const report = await check(dir, view, train);
      expect(report.rows).toBe(rows);
      if (train) expect((report.train as { steps: number }).steps).toBe(2);
      console.log(JSON.stringify(report));
    });
  }
});
