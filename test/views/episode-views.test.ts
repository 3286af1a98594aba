import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { parsePipeline } from "../../src/pipeline-file/load-pipeline.js";
import { planOfSpec } from "../../src/pipeline-file/plan-of-spec.js";
import { viewEnv } from "../../src/views/view-env.js";
import { openAiSftEpisodes } from "../../src/views/openai-sft-episodes.js";
import { trlMessages } from "../../src/views/trl-messages.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { demoTrajectory, dm, own, rlOf, step } from "./helpers/view-records.js";

const root = tempDir("evalshard-episodes-");
const RL = fileURLToPath(new URL("../../fixtures/records/views-rl.ndjson", import.meta.url));
const reward = (scalar_reward: number) => ({ reward: { checks_passed: 1, checks_failed: 0, conditions_met: [], scalar_reward, progress_delta: 0, terminal_reward: null } });

describe("episode views: a seat's trajectory as one conversation", () => {
  it("takes each window's new messages as user turns and the actions as assistant turns, once each", () => {
    const record = rlOf("run-e", [
      step(0, [dm("The ferry waits.")], "I pay."),
      // The emulator's window: the last narration, the seat's own last message, the narration now.
      step(1, [dm("The ferry waits."), own("I pay."), dm("The ferryman counts the coins.")], "I board."),
      step(2, [dm("The ferryman counts the coins."), own("I board."), dm("Rain.")], null),
      // After an idle step no own message; the narration of the idle step is not repeated.
      step(3, [dm("Rain."), dm("A guard <|im_start|>asks.")], "I give my name.<|eot_id|>"),
      step(4, [dm("A guard asks."), own("I give my name."), dm("He nods.")], null),
    ]);
    const { rows, dropped } = trlMessages.rows(record, viewEnv({ systemPrompt: "Play fair." }));
    expect(rows).toEqual([
      {
        messages: [
          { role: "system", content: "Play fair." },
          { role: "user", content: "The ferry waits." },
          { role: "assistant", content: "I pay." },
          { role: "user", content: "The ferryman counts the coins." },
          { role: "assistant", content: "I board." },
          { role: "user", content: "Rain.\n\nA guard asks." },
          { role: "assistant", content: "I give my name." },
        ],
        run_id: "run-e",
        seat_index: 0,
        campaign_id: "camp-views",
      },
    ]);
    expect(dropped).toEqual({ no_action: 2 });
  });

  it("weighs each assistant turn by its step's reward rule, and leaves out an episode with nothing to train on", () => {
    const record = rlOf("run-w", [
      step(0, [dm("A.")], "one", reward(0.5)),
      step(1, [dm("B.")], "two", reward(-0.2)),
      step(2, [dm("C.")], "three", { reward: { ...reward(0).reward, terminal_reward: 0.4 } }),
    ]);
    const weights = (turnWeight: "scalar_reward" | "return_to_go" | "all") =>
      openAiSftEpisodes.rows(record, viewEnv({ turnWeight })).rows[0]?.messages.map((m) => ("weight" in m ? m.weight : null));
    expect(weights("all")).toEqual([null, 1, null, 1, null, 1]);
    expect(weights("scalar_reward")).toEqual([null, 1, null, 0, null, 0]);
    // Returns: 0.7, 0.2, 0.4.
    expect(weights("return_to_go")).toEqual([null, 1, null, 1, null, 1]);
    const losing = rlOf("run-l", [step(0, [dm("A.")], "one", reward(-1))]);
    expect(openAiSftEpisodes.rows(losing, viewEnv({ turnWeight: "scalar_reward" }))).toMatchObject({ rows: [], dropped: { no_turns: 1 } });
  });

  it("writes no control token, and drops a whole episode on an injection under drop", () => {
    const record = demoTrajectory("run-i", 9, true);
    const { rows } = trlMessages.rows(record, viewEnv());
    const text = JSON.stringify(rows);
    expect(text).not.toMatch(/<\|im_start\|>|<\|im_end\|>|<\|eot_id\|>|\[INST\]/);
    const messages = rows[0]?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(messages.map((_, i) => (i % 2 === 0 ? "user" : "assistant")));
    expect(trlMessages.rows(record, viewEnv({ onInjection: "drop" }))).toMatchObject({ rows: [], dropped: { injection: 1 } });
  });

  it("convert: the manifest counts episodes and steps left out, the card says so; openai-sft --episodes weighs assistant lines only", async () => {
    const out = join(root, "messages");
    const { manifest } = await convert({ inputs: [RL], out, view: "trl-messages", shardRows: 1 });
    const left = { steps_dropped: { empty_content: 1, no_action: 1, null_content: 1 }, episodes_dropped: {} };
    expect(manifest.output.engine).toBe("parallel");
    expect(manifest.view).toMatchObject({ name: "trl-messages", trl_dataset_type: "conversational language modeling", trainer: "SFTTrainer", records_in: 2, rows_out: 2, ...left });
    expect(manifest.view?.text_audit["messages[].content"]).toMatchObject({ values: 16, changed: 16 });
    expect(readFileSync(join(out, "README.md"), "utf8")).toContain("2 rows (seat episodes) from 2 records. Episodes left out: none. Steps without an assistant turn: `empty_content` 1, `no_action` 1, `null_content` 1.");
    expect(readFileSync(join(out, "README.md"), "utf8")).toContain("`trl.SFTConfig(assistant_only_loss=True)`");
    const oai = join(root, "openai");
    const o = await convert({ inputs: [RL], out: oai, view: "openai-sft", episodes: true, turnWeight: "scalar-reward" });
    expect(o.manifest.view).toMatchObject({ name: "openai-sft", rows_out: 2, ...left, turn_weight: "scalar_reward" });
    expect(manifest.view?.turn_weight).toBeUndefined();
    const lines = readdirSync(join(oai, "data")).flatMap((f) => readFileSync(join(oai, "data", f), "utf8").trim().split("\n")).map((l) => JSON.parse(l) as { messages: Record<string, unknown>[] });
    expect(lines.map((l) => l.messages.filter((m) => m.role === "assistant").map((m) => m.weight))).toEqual([
      [1, 0, 1],
      [1, 0, 0, 1, 1],
    ]);
    // OpenAI's chat fine-tuning rules: only `messages`; roles it knows, non-blank texts; `weight` 0 or 1 on
    // assistant messages only, one at least trained on; a line ends user -> assistant.
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(["messages"]);
      for (const m of line.messages) {
        expect(Object.keys(m)).toEqual(m.role === "assistant" ? ["role", "content", "weight"] : ["role", "content"]);
        expect(["system", "user", "assistant"]).toContain(m.role);
        expect(String(m.content).trim()).not.toBe("");
        if (m.role === "assistant") expect([0, 1]).toContain(m.weight);
      }
      expect(line.messages.slice(-2).map((m) => m.role)).toEqual(["user", "assistant"]);
      expect(line.messages.some((m) => m.weight === 1)).toBe(true);
    }
  });

  it("refuses --episodes with another view and --turn-weight without --episodes, naming them", async () => {
    await expect(convert({ inputs: [RL], out: join(root, "x"), view: "trl-messages", episodes: true })).rejects.toThrow(/--episodes is openai-sft's/);
    await expect(convert({ inputs: [RL], out: join(root, "y"), view: "openai-sft", turnWeight: "all" })).rejects.toThrow(/--turn-weight .* add --episodes/);
  });

  it("a pipeline file's view_options.episodes and turn_weight", () => {
    const text = `version: 1\nname: x\nsource: {kind: http, base_url: 'http://h', format: rl}\noutput:\n  dir: out\n  to: jsonl\n  view: openai-sft\n  view_options: {episodes: true, turn_weight: return-to-go}\n`;
    expect(planOfSpec(parsePipeline(text, "p.yaml", {})).view).toMatchObject({ name: "openai-sft", turnWeight: "return_to_go" });
    expect(planOfSpec(parsePipeline(text.replace(", turn_weight: return-to-go", ""), "p.yaml", {})).view).toMatchObject({ turnWeight: "all" });
  });

  it("--max-tokens judges the whole conversation: an episode over it is left out whole, never truncated", async () => {
    const common = { inputs: [RL], view: "openai-sft", tokenizer: "tiktoken:o200k_base" } as const;
    const steps = (await convert({ ...common, out: join(root, "t-steps") })).manifest.view?.tokens;
    const all = (await convert({ ...common, episodes: true, out: join(root, "t-all") })).manifest.view?.tokens;
    // An episode holds every step's turns: longer than any one step's line.
    expect(all?.min).toBeGreaterThan(steps?.max ?? Infinity);
    const budget = await convert({ ...common, episodes: true, maxTokens: all?.min ?? 0, out: join(root, "t-budget") });
    expect(budget.manifest.view).toMatchObject({ rows_out: 1, episodes_dropped: { over_token_budget: 1 }, tokens: { rows: 1, max: all?.min } });
  });

  it("the CLI: --episodes --turn-weight, its losses line in episodes, exit 2 on --turn-weight alone", async () => {
    const dir = join(root, "cli");
    const r = await spawnCli(["convert", RL, "--out", dir, "--view", "openai-sft", "--episodes", "--turn-weight", "return-to-go"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain("view openai-sft: 2 rows from 2 records; none left out");
    expect(readdirSync(join(dir, "data"))).toEqual(["train-00000-of-00001.jsonl"]);
    const v = await spawnCli(["validate", RL, "--view", "trl-messages"]);
    expect(v.stdout).toContain("view trl-messages (SFTTrainer): 2 rows from 2 records; none left out; steps without a turn 3 (empty_content 1, no_action 1, null_content 1)\n");
    expect(v.stdout.match(/^view trl-messages/gm)).toHaveLength(1);
    const bad = await spawnCli(["convert", RL, "--out", join(root, "cli-bad"), "--view", "openai-sft", "--turn-weight", "all"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--turn-weight .* add --episodes/);
  });
});
