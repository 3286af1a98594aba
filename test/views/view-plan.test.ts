import { describe, expect, it } from "vitest";
import { parsePipeline } from "../../src/pipeline-file/load-pipeline.js";
import { planOfSpec } from "../../src/pipeline-file/plan-of-spec.js";
import { resolvePlan } from "../../src/plan/resolve-plan.js";

describe("a view in the plan", () => {
  it("library options: defaults filled, labels in the view's spelling, OpenAI views as plain JSON Lines", () => {
    expect(resolvePlan("convert", { inputs: ["a"], out: "o", view: "trl-kto", ktoLabel: "return-to-go" }).view).toEqual({
      name: "trl-kto",
      context: [],
      systemPrompt: undefined,
      systemPromptFile: undefined,
      controlTokens: undefined,
      onInjection: "keep",
      ktoLabel: "return_to_go",
      gamma: 1,
    });
    expect(resolvePlan("convert", { inputs: ["a"], out: "o", view: "openai-sft" }).shards).toMatchObject({ to: "jsonl", compression: "none" });
    expect(resolvePlan("convert", { inputs: ["a"], out: "o", view: "openai-sft", compression: "gzip" }).shards).toMatchObject({ to: "jsonl", compression: "gzip" });
    expect(resolvePlan("convert", { inputs: ["a"], out: "o" }).view).toBeUndefined();
  });

  it("library options: a bad value or combination is a ConfigError naming it", () => {
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", view: "chatml" as never })).toThrow(/Expected view to be one of trl-prompt-completion/);
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", view: "rl-steps", gamma: 2 })).toThrow(/Expected gamma to be a ratio from 0 to 1, got 2/);
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", gamma: 0.5 })).toThrow(/--gamma applies to training views only/);
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", view: "openai-dpo", context: ["rl"], to: "parquet" })).toThrow(/JSON Lines only/);
  });

  it("pipeline files: output.view and output.view_options", () => {
    const text = (extra: string) =>
      `version: 1\nname: x\nsource: {kind: http, base_url: 'http://h', format: rl}\noutput:\n  dir: out\n  to: jsonl\n  view: rl-steps\n${extra}`;
    expect(planOfSpec(parsePipeline(text(""), "p.yaml", {})).view).toMatchObject({ name: "rl-steps", onInjection: "keep", gamma: 1 });
    const spec = parsePipeline(text("  view_options: {on_injection: quarantine, gamma: 0.9, kto_label: return-to-go}\n"), "p.yaml", {});
    expect(planOfSpec(spec).view).toMatchObject({ name: "rl-steps", onInjection: "quarantine", gamma: 0.9, ktoLabel: "return_to_go" });
    const tokens = parsePipeline(text("  view_options: {tokenizer: tok/tokenizer.json, chat_template: llama3.jinja, max_tokens: 512}\n").replace("view: rl-steps", "view: trl-kto"), "p.yaml", {});
    expect(planOfSpec(tokens).view).toMatchObject({ name: "trl-kto", tokenizer: "tok/tokenizer.json", chatTemplate: "llama3.jinja", maxTokens: 512 });
    // rl-steps writes no chat messages to count; a budget needs the tokenizer it counts in.
    expect(() => planOfSpec(parsePipeline(text("  view_options: {tokenizer: tok/tokenizer.json}\n"), "p.yaml", {}))).toThrow(/--tokenizer counts chat messages, and the view rl-steps writes none/);
    expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", view: "trl-kto", maxTokens: 10 })).toThrow(/--max-tokens needs --tokenizer/);
    expect(() => parsePipeline(text("  view_options: {gamma: 3}\n"), "p.yaml", {})).toThrow(/gamma.*3/);
    expect(() => parsePipeline(text("  view_options: {nonsense: 1}\n"), "p.yaml", {})).toThrow(/nonsense/);
    expect(() => parsePipeline(text("").replace("view: rl-steps", "view: trl-preference"), "p.yaml", {})).toThrow(/reads dpo records, not rl|pull does not fetch/);
  });
});
