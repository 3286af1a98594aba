import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { RlContext } from "../../src/views/rl-context.js";
import { viewEnv } from "../../src/views/view-env.js";
import type { ViewName } from "../../src/views/view.js";
import { VIEWS } from "../../src/views/views.js";
import { PYTHON, PYTHON_SETUP_HINT } from "../helpers/python.js";
import { tempDir } from "../helpers/temp-dir.js";
import { demoPairs, demoTrajectory } from "./helpers/view-records.js";
import { writeViewDataset } from "./helpers/write-view-dataset.js";

// The project's virtualenv: npm test's pretest hook fills it from test/python/requirements.txt.
const CHECK = fileURLToPath(new URL("../python/trl_check.py", import.meta.url));
const ready = existsSync(PYTHON);
if (!ready && process.env.CI === undefined) console.warn(`Skipping the TRL proof: ${PYTHON} is missing (${PYTHON_SETUP_HINT}). In CI it runs and fails.`);
const itPython = ready || process.env.CI !== undefined ? it : it.skip;
const execFileAsync = promisify(execFile);

const root = tempDir("evalshard-trl-proof-");
const hfCache = join(root, "hf-cache");

/** Trajectories in the emulator's shape, half of them with an injection or control token in every text. */
const trajectories = [demoTrajectory("run-a", 9, false), demoTrajectory("run-b", 9, true), demoTrajectory("run-c", 9, false), demoTrajectory("run-d", 9, true)];
const pairs = [demoPairs(trajectories[0]!, trajectories[2]!), demoPairs(trajectories[1]!, trajectories[3]!), demoPairs(trajectories[3]!, trajectories[0]!)];

/** Runs the harness once over every directory (importing torch and TRL is most of its time): a report per view. */
async function check(cases: readonly { dir: string; view: ViewName }[]): Promise<Map<string, Record<string, unknown>>> {
  // Exits 1 when a check failed (the `keep` case must): the reports say which.
  const { stdout } = await execFileAsync(PYTHON, [CHECK, "--train", ...cases.flatMap((c) => [c.dir, c.view])], {
    maxBuffer: 1 << 26,
    timeout: 900_000,
    env: { ...process.env, HF_HOME: hfCache, HF_DATASETS_CACHE: hfCache, HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1", CUDA_VISIBLE_DEVICES: "" },
  }).catch((error: { stdout?: string }) => {
    if (typeof error.stdout !== "string" || !error.stdout.includes("TRL_CHECK ")) throw error;
    return { stdout: error.stdout };
  });
  const reports = stdout.trim().split("\n").filter((l) => l.startsWith("TRL_CHECK ")).map((l) => JSON.parse(l.slice(10)) as Record<string, unknown>);
  return new Map(reports.filter((r) => typeof r.dir === "string").map((r) => [basename(r.dir as string), r]));
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
  const written = new Map<ViewName, number>();
  let reports: Map<string, Record<string, unknown>> | Error = new Error("the harness did not run");
  beforeAll(async () => {
    const cases: { dir: string; view: ViewName }[] = [];
    for (const { view } of CASES) {
      const v = VIEWS[view];
      const context = new RlContext();
      for (const t of trajectories) context.add(t);
      const env = viewEnv({}, v.needsContext ? context : null);
      const dir = join(root, view);
      // Several shards, so the card's `data/train-*` pattern is what finds them.
      const { tally } = await writeViewDataset(dir, v, v.from === "rl" ? trajectories : pairs, env, 16);
      written.set(view, tally.rows_out);
      cases.push({ dir, view });
    }
    // The same rows with texts kept as written: the check must catch the control tokens.
    const kept = join(root, "keep-trl-prompt-completion");
    await writeViewDataset(kept, VIEWS["trl-prompt-completion"], trajectories, viewEnv({ text: "keep" }), 16);
    cases.push({ dir: kept, view: "trl-prompt-completion" });
    if (!ready && process.env.CI === undefined) return;
    // Keep the failure for each test to report, rather than failing the hook.
    reports = await check(cases).catch((error: unknown) => error as Error);
  }, 900_000);

  for (const { view, train } of CASES) {
    itPython(`${view}${train ? ": two training steps" : ""}`, () => {
      if (reports instanceof Error) throw reports;
      const report = reports.get(view);
      expect(report?.error).toBeUndefined();
      expect(report?.rows).toBe(written.get(view));
      if (train) expect((report?.train as { steps: number }).steps).toBe(2);
      console.log(JSON.stringify(report));
    });
  }

  itPython("the check catches control tokens in texts kept as written", () => {
    if (reports instanceof Error) throw reports;
    expect(reports.get("keep-trl-prompt-completion")?.error).toMatch(/holds \d+ <\|im_start\|>/);
  });
});
