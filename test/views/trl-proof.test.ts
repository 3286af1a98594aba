import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import type { Manifest } from "../../src/output/manifest.js";
import { viewEnv } from "../../src/views/view-env.js";
import type { ViewName } from "../../src/views/view.js";
import { VIEWS } from "../../src/views/views.js";
import { PYTHON, PYTHON_SETUP_HINT } from "../helpers/python.js";
import { PythonBatch } from "../helpers/python-batch.js";
import { tempDir } from "../helpers/temp-dir.js";
import { demoTrajectory } from "./helpers/view-records.js";
import { writeViewDataset } from "./helpers/write-view-dataset.js";

// The project's virtualenv: npm test's first phase fills it from test/python/requirements-{readers,trl}.txt.
const CHECK = fileURLToPath(new URL("../python/trl_check.py", import.meta.url));
const ready = existsSync(PYTHON);
if (!ready && process.env.CI === undefined) console.warn(`Skipping the TRL proof: ${PYTHON} is missing (${PYTHON_SETUP_HINT}). In CI it runs and fails.`);
const itPython = ready || process.env.CI !== undefined ? it : it.skip;

const root = tempDir("evalshard-trl-proof-");
const hfCache = join(root, "hf-cache");
// Started now, it imports torch and TRL while the views are written.
const python = new PythonBatch({ HF_HOME: hfCache, HF_DATASETS_CACHE: hfCache, HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1", CUDA_VISIBLE_DEVICES: "" }, ready ? ["datasets", "torch", "transformers", "trl.trainer.sft_trainer", "trl.trainer.dpo_trainer", "trl.trainer.kto_trainer"] : []);
afterAll(() => python.close());

// Purpose-built fixtures (fixtures/records/make-views.mjs): an injection and raw control tokens in every
// window message and action; steps and pairs left out for every reason.
const FIXTURES = fileURLToPath(new URL("../../fixtures/records/", import.meta.url));
const RL = join(FIXTURES, "views-rl.ndjson");
const DPO = join(FIXTURES, "views-dpo.ndjson");
/** Trajectories in the emulator's shape, for the `keep` case, which only the library's row builders can write. */
const trajectories = [demoTrajectory("run-a", 9, false), demoTrajectory("run-b", 9, true), demoTrajectory("run-c", 9, false), demoTrajectory("run-d", 9, true)];

/** Runs the harness once over every directory (importing torch and TRL is most of its time): a report per view. */
async function check(cases: readonly { dir: string; view: ViewName }[]): Promise<Map<string, Record<string, unknown>>> {
  // Exits 1 when a check failed (the `keep` case must): the reports say which.
  const { status, stdout, stderr } = await python.run(CHECK, ["--train", ...cases.flatMap((c) => [c.dir, c.view])]);
  if (status !== 0 && !stdout.includes("TRL_CHECK ")) throw new Error(`trl_check.py exited ${status}: ${stderr.slice(-4000)}`);
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
  const manifests = new Map<ViewName, Manifest>();
  let reports: Map<string, Record<string, unknown>> | Error = new Error("the harness did not run");
  beforeAll(async () => {
    const cases: { dir: string; view: ViewName }[] = [];
    for (const { view } of CASES) {
      const v = VIEWS[view];
      const dir = join(root, view);
      // The public surface: `convert --view` (the OpenAI views pick plain JSON Lines themselves). Several
      // shards, so the card's `data/train-*` pattern is what finds them.
      const { manifest } = await convert({ inputs: [v.from === "rl" ? RL : DPO], out: dir, view, shardRows: 2, ...(v.needsContext ? { context: [RL] } : {}) });
      written.set(view, manifest.view?.rows_out ?? -1);
      manifests.set(view, manifest);
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

  it("counts records, rows and what was left out as the fixtures say", () => {
    for (const view of ["trl-prompt-completion", "trl-kto", "openai-sft"] as const) {
      expect(manifests.get(view), view).toMatchObject({
        records_in: 4,
        records_out: 2,
        dropped: { flagged: 1, superseded: 1 },
        quarantined: {},
        view: { name: view, records_in: 2, rows_out: 7, steps_dropped: { empty_content: 1, no_action: 1, no_prompt: 1, null_content: 1 }, prompts_trimmed: 1 },
      });
    }
    expect(manifests.get("rl-steps")).toMatchObject({ records_out: 2, view: { rows_out: 11, steps_dropped: {}, prompts_trimmed: 0 } });
    for (const view of ["trl-preference", "openai-dpo"] as const) {
      expect(manifests.get(view), view).toMatchObject({
        records_in: 3,
        records_out: 3,
        view: {
          name: view,
          records_in: 3,
          rows_out: 4,
          pairs_dropped: { chosen_equals_rejected: 1, no_context: 2, no_prompt: 1, null_content: 1, unknown_alignment: 1 },
          prompts_trimmed: 1,
          context: { records: 4, trajectories: 3, invalid: 0 },
        },
      });
    }
    expect(manifests.get("trl-preference")?.view).toMatchObject({ trl_dataset_type: "conversational preference", trainer: "DPOTrainer" });
    expect(manifests.get("openai-sft")?.output).toMatchObject({ to: "jsonl", compression: "none", engine: "parallel" });
    expect(manifests.get("openai-sft")?.shards.every((s) => s.path.endsWith(".jsonl"))).toBe(true);
    // Every window message and action carried control tokens; sanitizing changed every text it wrote.
    const audit = manifests.get("trl-prompt-completion")?.view?.text_audit ?? {};
    expect(audit["prompt[].content"]).toMatchObject({ values: 9, changed: 9 });
    expect(audit["completion[].content"]).toMatchObject({ values: 7, changed: 7 });
  });

  itPython("the check catches control tokens in texts kept as written", () => {
    if (reports instanceof Error) throw reports;
    expect(reports.get("keep-trl-prompt-completion")?.error).toMatch(/holds \d+ <\|im_start\|>/);
  });
});
