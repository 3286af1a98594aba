import type { AnyView } from "./view.js";
import { viewLosses } from "./view-losses.js";
import type { ViewManifest } from "./view-manifest.js";

/**
 * The markdown a dataset card adds for a view: which view, TRL's dataset type and trainer, how to load it
 * for training, and from its manifest section what was left out and what the texts carry. The card's front
 * matter (features, splits) is the dataset card's own, from `view.columns`.
 */
export function viewCard(view: AnyView, manifest: ViewManifest): string[] {
  const lines = [`This dataset is the \`${view.name}\` view (evalshard, docs/views.md): ${view.description}`, ""];
  if (view.trl !== null) {
    const { trainer, type, format } = view.trl;
    const dot = trainer.lastIndexOf(".");
    const [module, name] = dot === -1 ? ["trl", trainer] : [`trl.${trainer.slice(0, dot)}`, trainer.slice(dot + 1)];
    // Online trainers generate the completions and score them: they take reward functions, not completions.
    const rewards = type === "prompt-only" ? "reward_funcs=..., " : "";
    lines.push(
      format === "standard"
        ? `TRL dataset type: standard ${type} (plain text), for \`${module}.${name}\`.`
        : `TRL dataset type: conversational ${type}, for \`${module}.${name}\`; messages are lists of \`{role, content}\`.`,
      "",
      "```python",
      "from datasets import load_dataset",
      `from ${module} import ${name}`,
      `train = load_dataset("path/to/this/directory", split="train")`,
      `trainer = ${name}(model=..., ${rewards}train_dataset=train, processing_class=tokenizer)`,
      "```",
      "",
    );
    if (view.trl?.type === "language modeling") lines.push("To train on the seat's actions alone: `trl.SFTConfig(assistant_only_loss=True)` with a chat template that marks assistant turns with `{% generation %}` (TRL's `trl/chat_templates/*_training.jinja`).", "");
  }
  const listed = (dropped: Readonly<Record<string, number>>): string => {
    const entries = Object.entries(dropped).map(([reason, n]) => `\`${reason}\` ${n}`);
    return entries.length === 0 ? "none" : entries.join(", ");
  };
  const losses = viewLosses(manifest);
  const { rows_out, records_in, prompts_trimmed } = manifest;
  if (losses.steps_without_turn !== undefined) {
    lines.push(`${rows_out} rows (seat episodes) from ${records_in} records. Episodes left out: ${listed(losses.left_out)}. Steps without an assistant turn: ${listed(losses.steps_without_turn)}.`);
  } else lines.push(`${rows_out} rows from ${records_in} records. ${losses.unit === "steps" ? "Steps" : "Pairs"} left out: ${listed(losses.left_out)}.`);
  const t = manifest.tokens;
  if (t !== undefined) {
    const template = t.chat_template === null ? "counted as the OpenAI API counts messages" : `chat template \`${t.chat_template.name}\` (sha256 ${t.chat_template.sha256})`;
    lines.push(
      "",
      `Token counts: tokenizer \`${t.tokenizer.name}\` (sha256 ${t.tokenizer.sha256}), ${template}. ${t.rows} rows, ${t.total} tokens; per row min ${t.min ?? "-"}, p50 ${t.p50 ?? "-"}, p95 ${t.p95 ?? "-"}, max ${t.max ?? "-"}.` +
        (t.max_tokens === null ? "" : ` Budget ${t.max_tokens} tokens: rows over it were dropped, never truncated.`),
      "",
    );
  }
  if (prompts_trimmed > 0) lines.push(`${prompts_trimmed} ${prompts_trimmed === 1 ? "prompt" : "prompts"} lost the seat's own messages at an end, so that each starts and ends with a user message.`);
  lines.push(
    "",
    "Every text was sanitized: chat-template control tokens, control, bidi and zero-width characters removed. Per column, texts changed and texts matching a prompt-injection pattern:",
    "",
    "| column | texts | changed | injection patterns |",
    "|---|---|---|---|",
    ...Object.entries(manifest.text_audit).map(([path, a]) => `| \`${path}\` | ${a.values} | ${a.changed} | ${a.injected}${a.injected > 0 ? ` (${Object.entries(a.patterns).map(([p, n]) => `${p} ${n}`).join(", ")})` : ""} |`),
    "",
  );
  return lines;
}
