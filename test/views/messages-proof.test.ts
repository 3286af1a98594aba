import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { viewEnv } from "../../src/views/view-env.js";
import { trlMessages } from "../../src/views/trl-messages.js";
import { PYTHON, PYTHON_SETUP_HINT } from "../helpers/python.js";
import { PythonBatch } from "../helpers/python-batch.js";
import { tempDir } from "../helpers/temp-dir.js";
import { demoTrajectory } from "./helpers/view-records.js";
import { writeViewDataset } from "./helpers/write-view-dataset.js";

const CHECK = fileURLToPath(new URL("../python/messages_check.py", import.meta.url));
const RL = fileURLToPath(new URL("../../fixtures/records/views-rl.ndjson", import.meta.url));
const ready = existsSync(PYTHON);
if (!ready && process.env.CI === undefined) console.warn(`Skipping the trl-messages proof: ${PYTHON} is missing (${PYTHON_SETUP_HINT}). In CI it runs and fails.`);
const itPython = ready || process.env.CI !== undefined ? it : it.skip;
const root = tempDir("evalshard-messages-proof-");
const hf = join(root, "hf-cache");
// Both checks in one Python process (importing torch and TRL is most of each one's time), importing while convert writes.
const python = new PythonBatch({ HF_HOME: hf, HF_DATASETS_CACHE: hf, HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1", CUDA_VISIBLE_DEVICES: "" }, ready ? ["datasets", "torch", "transformers", "trl.trainer.sft_trainer"] : []);
afterAll(() => python.close());

/** The harness's report for a dataset directory (it exits 1 when a check failed: the report says which). */
async function check(dir: string, template: string): Promise<Record<string, unknown>> {
  const { status, stdout, stderr } = await python.run(CHECK, [dir, template]);
  if (status !== 0 && !stdout.includes("MESSAGES_CHECK ")) throw new Error(`messages_check.py ${dir} exited ${status}: ${stderr}`);
  const line = stdout.split("\n").find((l) => l.startsWith("MESSAGES_CHECK "));
  return JSON.parse((line ?? "MESSAGES_CHECK {}").slice(15)) as Record<string, unknown>;
}

describe("trl-messages trains in SFTTrainer with assistant_only_loss under a TRL training template", () => {
  itPython(
    "two steps on a tiny Llama: finite loss, the loss on exactly the assistant turns, no control token rendered",
    async () => {
      // The fixtures (control tokens and an injection in every text) and emulator-shaped episodes, through convert.
      const inputs = join(root, "episodes.ndjson");
      writeFileSync(inputs, ["ep-1", "ep-2", "ep-3"].map((id, i) => JSON.stringify(demoTrajectory(id, 9 + i, i === 1))).join("\n") + "\n");
      const dir = join(root, "trl-messages");
      const { manifest } = await convert({ inputs: [RL, inputs], out: dir, view: "trl-messages", systemPrompt: "You are the negotiator.", shardRows: 2 });
      expect(manifest.dropped, JSON.stringify(manifest)).toEqual({ flagged: 1, superseded: 1 });
      expect(manifest.view?.rows_out).toBe(5);
      const report = await check(dir, "qwen2_5_training");
      console.log(JSON.stringify(report));
      expect(report.error).toBeUndefined();
      expect(report).toMatchObject({ rows: 5, train: { steps: 2 } });
      expect(Number.isFinite((report.train as { loss: number }).loss)).toBe(true);

      // The same episodes with texts kept as the service wrote them: the check must catch the control tokens.
      const kept = join(root, "keep");
      await writeViewDataset(kept, trlMessages, [demoTrajectory("run-k", 9, true)], viewEnv({ text: "keep" }));
      expect((await check(kept, "qwen2_5_training")).error).toMatch(/holds \d+ <\|im_start\|>/);
    },
    900_000,
  );
});
