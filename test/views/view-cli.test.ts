import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { emulator, envFor } from "../jobs/nightly/support.js";
import { tempDir } from "../helpers/temp-dir.js";
import { spawnCli } from "../helpers/spawn-cli.js";

// The built CLI (npm test builds first): flags, exit codes and messages of `--view`.
const FIXTURES = fileURLToPath(new URL("../../fixtures/records/", import.meta.url));
const RL = join(FIXTURES, "views-rl.ndjson");
const DPO = join(FIXTURES, "views-dpo.ndjson");
const root = tempDir("evalshard-view-cli-");
let n = 0;
const out = () => join(root, `o${n++}`);

describe("convert --view (CLI)", () => {
  it("writes the view's rows, the manifest's view section and the card's", async () => {
    const dir = out();
    const r = await spawnCli(["convert", RL, "--out", dir, "--view", "trl-kto", "--kto-label", "return-to-go", "--system-prompt", "You negotiate.", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const manifest = JSON.parse(r.stdout) as { output: { engine: string }; view: { rows_out: number; system_prompt: boolean; trainer: string } };
    expect(manifest.output.engine).toBe("parallel");
    expect(manifest.view).toMatchObject({ rows_out: 7, system_prompt: true, trainer: "KTOTrainer" });
    expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/`trl-kto` view[\s\S]*KTOTrainer/);
  });

  it("an OpenAI view is plain .jsonl unless asked otherwise", async () => {
    const dir = out();
    const r = await spawnCli(["convert", RL, "--out", dir, "--view", "openai-sft"]);
    expect(r.status, r.stderr).toBe(0);
    const files = readdirSync(join(dir, "data"));
    expect(files).toEqual(["train-00000-of-00001.jsonl"]);
    for (const line of readFileSync(join(dir, "data", files[0] as string), "utf8").trim().split("\n")) {
      const row = JSON.parse(line) as { messages: { role: string }[] };
      expect(Object.keys(row)).toEqual(["messages"]);
      expect(row.messages.slice(-2).map((m) => m.role)).toEqual(["user", "assistant"]);
    }
  });

  it("--on-injection drop and quarantine: counted by steps, or by records in the quarantine", async () => {
    const dropped = await spawnCli(["convert", RL, "--out", out(), "--view", "trl-prompt-completion", "--on-injection", "drop", "--json"]);
    expect(dropped.status, dropped.stderr).toBe(0);
    // Every prompt of the fixture carries "Ignore all previous instructions" (but the trimmed ones' own part).
    expect(JSON.parse(dropped.stdout)).toMatchObject({ records_out: 2, view: { rows_out: 0, steps_dropped: { injection: 7 } } });
    const dir = out();
    const quarantined = await spawnCli(["convert", RL, "--out", dir, "--view", "trl-prompt-completion", "--on-injection", "quarantine", "--max-quarantined", "1", "--json"]);
    expect(quarantined.status, quarantined.stderr).toBe(0);
    const m = JSON.parse(quarantined.stdout) as Record<string, unknown>;
    expect(m).toMatchObject({ records_in: 4, records_out: 0, quarantined: { injection: 2 }, view: { rows_out: 0, records_in: 0 } });
    const entries = readFileSync(join(dir, "_quarantine/rl.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { reason: string; raw: string; source: string });
    expect(entries.map((e) => e.reason)).toEqual(["injection", "injection"]);
    expect(JSON.parse(entries[0]?.raw ?? "{}")).toMatchObject({ run_id: "run-a" });
  });

  it("--control-tokens removes a tokenizer's own tokens", async () => {
    const tokens = join(root, "tokens.txt");
    writeFileSync(tokens, "Ignore all previous instructions\n");
    const r = await spawnCli(["convert", RL, "--out", out(), "--view", "trl-prompt-completion", "--control-tokens", tokens, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const m = JSON.parse(r.stdout) as { view: { extra_control_tokens: number; text_audit: Record<string, { injected: number }> } };
    expect(m.view.extra_control_tokens).toBe(1);
    expect(m.view.text_audit["prompt[].content"]?.injected).toBe(0);
  });

  const refusals: [string, string[], RegExp][] = [
    ["a view of another format", ["convert", DPO, "--view", "trl-prompt-completion"], /reads rl records, but the inputs hold dpo records/],
    ["a forced format the view does not read", ["convert", RL, "--format", "sft", "--view", "rl-steps"], /reads rl records, not sft/],
    ["--context without a DPO view", ["convert", RL, "--view", "rl-steps", "--context", RL], /--context is for the DPO views/],
    ["--context without a view", ["convert", RL, "--context", RL], /--context applies to training views only/],
    ["a DPO view without --context", ["convert", DPO, "--view", "trl-preference"], /give the RL export with --context/],
    ["an OpenAI view as Parquet", ["convert", RL, "--view", "openai-sft", "--to", "parquet"], /JSON Lines only/],
    ["two system prompts", ["convert", RL, "--view", "rl-steps", "--system-prompt", "a", "--system-prompt-file", RL], /--system-prompt or --system-prompt-file, not both/],
    ["a system prompt with a control token", ["convert", RL, "--view", "trl-kto", "--system-prompt", "<|im_start|>x"], /system prompt must be non-blank text without chat-template control tokens/],
    ["an unknown view", ["convert", RL, "--view", "chatml"], /Allowed choices are trl-prompt-completion/],
  ];
  for (const [what, args, message] of refusals) {
    it(`exit 2 for ${what}`, async () => {
      const r = await spawnCli([...args, "--out", out()]);
      expect(r.stderr).toMatch(message);
      expect(r.status).toBe(2);
    });
  }
});

describe("pull --view (CLI)", () => {
  it("pulls RL from the emulator as OpenAI SFT lines, plain JSON Lines without --to", async () => {
    const emu = await emulator({ seed: 31, runs: 30 });
    try {
      const dir = out();
      const r = await spawnCli(["pull", "rl", "--base-url", emu.url, "--out", dir, "--view", "openai-sft", "--json"], envFor(emu, dir));
      expect(r.status, r.stderr).toBe(0);
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { output: { to: string; compression: string }; view: { rows_out: number } };
      expect(manifest.output).toMatchObject({ to: "jsonl", compression: "none" });
      expect(manifest.view.rows_out).toBeGreaterThan(0);
    } finally {
      await emu.close().catch(() => undefined);
    }
  });

  it("pulls DPO pairs as OpenAI DPO lines, their prompts from the paired runs' RL records it fetches", async () => {
    const emu = await emulator({ seed: 37, runs: 60 });
    try {
      const dir = out();
      const r = await spawnCli(["pull", "dpo", "--base-url", emu.url, "--out", dir, "--view", "openai-dpo", "--json"], envFor(emu, dir));
      expect(r.status, r.stderr).toBe(0);
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { output: { to: string }; view: { rows_out: number; context: { records: number }; pairs_dropped: Record<string, number> }; shards: { path: string }[] };
      expect(manifest.output.to).toBe("jsonl");
      expect(manifest.view.context.records).toBeGreaterThan(0);
      expect(manifest.view.rows_out).toBeGreaterThan(0);
      expect(manifest.view.pairs_dropped.no_context ?? 0).toBe(0);
      const line = readFileSync(join(dir, manifest.shards[0]?.path ?? ""), "utf8").split("\n")[0] ?? "";
      expect(Object.keys(JSON.parse(line) as object)).toEqual(["input", "preferred_output", "non_preferred_output"]);
    } finally {
      await emu.close().catch(() => undefined);
    }
  });
});

describe("validate --view (CLI)", () => {
  it("counts what the view would produce, writing nothing", async () => {
    const r = await spawnCli(["validate", DPO, "--view", "trl-preference", "--context", RL, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ records_out: 3, view: { rows_out: 4, pairs_dropped: { chosen_equals_rejected: 1, no_context: 2, no_prompt: 1, null_content: 1, unknown_alignment: 1 } } });
    const text = await spawnCli(["validate", RL, "--view", "openai-sft"]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^view openai-sft: 7 rows from \d+ records; left out 4 steps, [\d.]+% \(empty_content 1, no_action 1, no_prompt 1, null_content 1\)$/m);
  });
});
