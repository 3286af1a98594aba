import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// The built CLI: `--tokenizer`'s bad input is exit 2 before anything is published; tiktoken for the OpenAI views.
const FIXTURES = fileURLToPath(new URL("../../fixtures/records/", import.meta.url));
const RL = join(FIXTURES, "views-rl.ndjson");
const root = tempDir("evalshard-token-cli-");
let n = 0;
const out = () => join(root, `o${n++}`);

/** A word-level tokenizer.json (every word of the fixture's texts unknown but `[UNK]`), with gemma's template beside it, which refuses a system message. */
function gemmaLike(): string {
  const dir = join(root, "gemma-like");
  const tokenizer = {
    version: "1.0",
    added_tokens: [{ id: 0, content: "[UNK]", special: true }, { id: 1, content: "<start_of_turn>", special: true }],
    normalizer: null,
    pre_tokenizer: { type: "Whitespace" },
    post_processor: null,
    decoder: null,
    model: { type: "WordLevel", vocab: { "[UNK]": 0, "<start_of_turn>": 1 }, unk_token: "[UNK]" },
  };
  const template =
    "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{% for message in messages %}{{ '<start_of_turn>' + message['role'] + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\\n'}}{% endif %}";
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(tokenizer));
  writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify({ bos_token: "<bos>", chat_template: template }));
  return join(dir, "tokenizer.json");
}

describe("--tokenizer (CLI)", () => {
  it("counts with tiktoken:o200k_base for an OpenAI view; the card states it", async () => {
    const dir = out();
    const r = await spawnCli(["convert", RL, "--out", dir, "--view", "openai-sft", "--tokenizer", "tiktoken:o200k_base", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const tokens = (JSON.parse(r.stdout) as { view: { rows_out: number; tokens: Record<string, unknown> } }).view;
    expect(tokens.tokens).toMatchObject({ tokenizer: { name: "tiktoken:o200k_base" }, chat_template: null, max_tokens: null, rows: tokens.rows_out });
    expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(/Token counts: tokenizer `tiktoken:o200k_base`/);
  });

  it("validate counts as convert does, writing nothing: rows over --max-tokens left out", async () => {
    const all = await spawnCli(["validate", RL, "--view", "openai-sft", "--tokenizer", "tiktoken:o200k_base", "--json"]);
    expect(all.status, all.stderr).toBe(0);
    const counted = (JSON.parse(all.stdout) as { view: { rows_out: number; tokens: { p50: number; max: number } } }).view;
    const budget = await spawnCli(["validate", RL, "--view", "openai-sft", "--tokenizer", "tiktoken:o200k_base", "--max-tokens", String(counted.tokens.p50), "--json"]);
    expect(budget.status, budget.stderr).toBe(0);
    const v = (JSON.parse(budget.stdout) as { view: { rows_out: number; steps_dropped: Record<string, number>; tokens: { max: number; max_tokens: number } } }).view;
    expect(v.tokens.max).toBeLessThanOrEqual(counted.tokens.p50);
    expect(v.rows_out + (v.steps_dropped.over_token_budget ?? 0)).toBe(counted.rows_out);
    expect(v.steps_dropped.over_token_budget).toBeGreaterThan(0);
  });

  it("bad input is exit 2, naming it, and nothing is published", async () => {
    const cases: [string[], RegExp][] = [
      [["--view", "trl-kto", "--tokenizer", RL], /--tokenizer "views-rl.ndjson" is not JSON/],
      [["--view", "trl-kto", "--tokenizer", join(FIXTURES, "..", "..", "package.json")], /is not a Hugging Face tokenizer.json/],
      [["--view", "trl-kto", "--tokenizer", "tiktoken:cl100k_base"], /expected tiktoken:o200k_base/],
      [["--view", "rl-steps", "--tokenizer", "tiktoken:o200k_base"], /the view rl-steps writes none/],
      [["--view", "openai-sft", "--max-tokens", "100"], /--max-tokens needs --tokenizer/],
      [["--view", "openai-sft", "--tokenizer", "tiktoken:o200k_base", "--system-prompt", "You are a careful negotiator at the ferry.", "--max-tokens", "5"], /--max-tokens 5 is below the system prompt's own length/],
    ];
    for (const [args, message] of cases) {
      const dir = out();
      const r = await spawnCli(["convert", RL, "--out", dir, ...args]);
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(join(dir, "manifest.json"))).toBe(false);
    }
  });

  it("a template that fails on a row is exit 2 naming the row; nothing is published", async () => {
    const dir = out();
    const r = await spawnCli(["convert", RL, "--out", dir, "--view", "trl-prompt-completion", "--tokenizer", gemmaLike(), "--system-prompt", "You negotiate."]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/The chat template failed on a row of the trl-prompt-completion view \(run "run-a", seat_index 0, step_index \d+\): System role not supported/);
    expect(existsSync(join(dir, "manifest.json"))).toBe(false);
  });
});
