import { ConfigError } from "../core/errors.js";
import { BOUNDARY_MISMATCH } from "../tokens/token-cache.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { TrainingText } from "./training-text.js";
import type { AnyView } from "./view.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResult } from "./view-result.js";
import { ViewResultBuilder } from "./view-result.js";

type Rows = (record: unknown, env: ViewEnv) => ViewResult<Record<string, unknown>>;

/**
 * The view's rows under `env.tokens`, the one rule every executor runs: each row's prompt is rendered with the
 * generation prompt and each prompt plus completion without it, by the model's chat template as
 * transformers' `apply_chat_template` renders them. A row whose rendered prompt (its text, then its token ids)
 * is not a prefix of a rendered prompt plus completion is dropped (`template_boundary_mismatch`: the template
 * re-renders the history, or a token merges across the boundary, so the completion's tokens would not follow
 * the prompt's); one whose longest prompt plus completion is over
 * `maxTokens` tokens is dropped (`over_token_budget`), never truncated. The kept rows' counts go with the
 * result. Without a template (tiktoken) the messages are counted as the OpenAI API counts them. With a cache
 * (a nightly dataset's), a row whose training text was judged before is not rendered or counted again.
 */
export function viewRows(view: AnyView): Rows {
  const rows = view.rows as Rows;
  const training = view.training?.bind(view) as ((row: Record<string, unknown>) => TrainingText) | undefined;
  return (record, env) => {
    const result = rows(record, env);
    const budget = env.tokens;
    if (budget === null) return result;
    if (training === undefined) throw new ConfigError(`The view ${view.name} has no chat text to count tokens of: --tokenizer goes with the chat views`);
    const out = new ViewResultBuilder<Record<string, unknown>>();
    Object.assign(out.dropped, result.dropped);
    out.trimmed = result.trimmed;
    const tokens: number[] = [];
    const cache = budget.cache;
    let cached = 0;
    result.rows.forEach((row, i) => {
      const text = training(row);
      const key = cache?.key(text.prompt, text.completions);
      let longest = key === undefined ? undefined : cache?.lookup(key);
      if (longest !== undefined) cached++;
      else {
        try {
          longest = judge(budget.counter, text);
        } catch (error) {
          throw new ConfigError(`The chat template failed on a row of the ${view.name} view (${rowKey(record, row, i)}): ${(error as Error).message}`);
        }
        if (key !== undefined) cache?.store(key, longest);
      }
      if (longest === BOUNDARY_MISMATCH) out.drop("template_boundary_mismatch");
      else if (budget.maxTokens !== null && longest > budget.maxTokens) out.drop("over_token_budget");
      else {
        out.rows.push(row);
        tokens.push(longest);
      }
    });
    return { ...out.result(), tokens, ...(cache === null ? {} : { cached }) };
  };
}

/**
 * The tokens of a row's longest prompt plus completion, or BOUNDARY_MISMATCH when the prompt's tokens are not
 * the first tokens of a prompt plus completion: first as rendered text (a prefix), then as token ids, since a
 * merge across the boundary (a prompt ending in a space the completion's first word joins) breaks the ids where
 * the text holds, and TRL trains on the ids (trl #1832, #5213). Throws the template's own error.
 */
function judge(counter: TokenCounter, text: TrainingText): number {
  const prompt = counter.render(text.prompt, true);
  // A prompt-only row trains on its prompt, as a generation prompt: what an online trainer feeds the model.
  if (text.completions.length === 0) return prompt === null ? counter.countMessages(text.prompt) : counter.count(prompt);
  let promptIds: readonly number[] | undefined;
  let longest = 0;
  for (const completion of text.completions) {
    const full = counter.render([...text.prompt, ...completion], false);
    if (prompt === null || full === null) {
      longest = Math.max(longest, counter.countMessages([...text.prompt, ...completion]));
      continue;
    }
    if (!full.startsWith(prompt)) return BOUNDARY_MISMATCH;
    promptIds ??= counter.ids(prompt);
    const ids = counter.ids(full);
    if (!startsWith(ids, promptIds)) return BOUNDARY_MISMATCH;
    longest = Math.max(longest, ids.length);
  }
  return longest;
}

function startsWith(ids: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > ids.length) return false;
  for (let i = 0; i < prefix.length; i++) if (ids[i] !== prefix[i]) return false;
  return true;
}

/** Names a row in an error: its record's run and seat, and the row's step or place among the record's rows. */
function rowKey(record: unknown, row: Record<string, unknown>, index: number): string {
  const r = record as { run_id?: unknown; run_chosen?: unknown; seat?: { seat_index?: unknown }; seat_index?: unknown };
  const run = r.run_id ?? r.run_chosen;
  const seat = r.seat?.seat_index ?? r.seat_index;
  const step = row.step_index === undefined ? `row ${index}` : `step_index ${String(row.step_index)}`;
  return `run ${JSON.stringify(run)}, seat_index ${String(seat)}, ${step}`;
}
