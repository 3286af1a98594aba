import type { PathAudit } from "./text-audit.js";
import type { TokenStats } from "./token-stats.js";
import type { AnyView } from "./view.js";
import type { ViewCounts } from "./view-tally.js";
import { episodesDropped } from "./view-manifest.js";

/** What a dataset card says about a view's dataset. */
export interface ViewCardOptions {
  readonly view: AnyView;
  readonly counts: ViewCounts;
  readonly audit: Readonly<Record<string, PathAudit>>;
  /** The text policy the rows were written with. */
  readonly text: "sanitize" | "keep";
  /** The manifest's `view.tokens`, when rows were counted. */
  readonly tokens?: TokenStats | undefined;
}

/**
 * The markdown a dataset card adds for a view: which view, TRL's dataset type and trainer, how to load it
 * for training, what was left out and what the texts carry. The card's front matter (features, splits) is
 * the dataset card's own, from `view.columns`.
 */
export function viewCard(options: ViewCardOptions): string[] {
  const { view, counts, audit } = options;
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
  const listed = (dropped: ViewCounts["dropped"]): string => {
    const entries = Object.entries(dropped).map(([reason, n]) => `\`${reason}\` ${n}`);
    return entries.length === 0 ? "none" : entries.join(", ");
  };
  if (view.unit === "episode") {
    const { episodes_dropped, steps_dropped } = episodesDropped(counts.dropped);
    lines.push(`${counts.rows_out} rows (seat episodes) from ${counts.records_in} records. Episodes left out: ${listed(episodes_dropped)}. Steps without an assistant turn: ${listed(steps_dropped)}.`);
  } else lines.push(`${counts.rows_out} rows from ${counts.records_in} records. ${view.unit === "step" ? "Steps" : "Pairs"} left out: ${listed(counts.dropped)}.`);
  const t = options.tokens;
  if (t !== undefined) {
    const template = t.chat_template === null ? "counted as the OpenAI API counts messages" : `chat template \`${t.chat_template.name}\` (sha256 ${t.chat_template.sha256})`;
    lines.push(
      "",
      `Token counts: tokenizer \`${t.tokenizer.name}\` (sha256 ${t.tokenizer.sha256}), ${template}. ${t.rows} rows, ${t.total} tokens; per row min ${t.min ?? "-"}, p50 ${t.p50 ?? "-"}, p95 ${t.p95 ?? "-"}, max ${t.max ?? "-"}.` +
        (t.max_tokens === null ? "" : ` Budget ${t.max_tokens} tokens: rows over it were dropped, never truncated.`),
      "",
    );
  }
  if (counts.prompts_trimmed > 0) lines.push(`${counts.prompts_trimmed} ${counts.prompts_trimmed === 1 ? "prompt" : "prompts"} lost the seat's own messages at an end, so that each starts and ends with a user message.`);
  lines.push(
    "",
    options.text === "sanitize"
      ? "Every text was sanitized: chat-template control tokens, control, bidi and zero-width characters removed. Per column, texts changed and texts matching a prompt-injection pattern:"
      : "Texts are as the service wrote them (`keep`): they may hold chat-template control tokens. Per column, texts matching a prompt-injection pattern:",
    "",
    "| column | texts | changed | injection patterns |",
    "|---|---|---|---|",
    ...Object.entries(audit).map(([path, a]) => `| \`${path}\` | ${a.values} | ${a.changed} | ${a.injected}${a.injected > 0 ? ` (${Object.entries(a.patterns).map(([p, n]) => `${p} ${n}`).join(", ")})` : ""} |`),
    "",
  );
  return lines;
}
