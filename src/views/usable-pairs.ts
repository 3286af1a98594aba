import type { DpoRecord } from "../formats/dpo.js";
import { pairDropReason } from "../formats/dpo-rules.js";
import { admitTexts, turnTexts } from "./admit-texts.js";
import type { ChatMessage } from "./chat-message.js";
import { promptFromWindow } from "./prompt-from-window.js";
import { messagesOf } from "./turn.js";
import type { Turn } from "./turn.js";
import type { ViewName } from "./view.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";
import { contextMissing } from "./view-traits.js";

/** A DPO pair that gives a row: the pair, the prompt of its aligned RL step, and its two sides as replies, as messages. */
export interface UsablePair {
  readonly pair: DpoRecord["pairs"][number];
  readonly prompt: ChatMessage[];
  readonly chosen: ChatMessage[];
  readonly rejected: ChatMessage[];
}

/** Where the audit counts a pair row's texts. */
export interface PairPaths {
  readonly prompt: string;
  readonly chosen: string;
  readonly rejected: string;
}

/**
 * The pairs of a DPO record that give a row, in order; the others are counted in `result` by reason, the
 * first that applies of: `unknown_alignment`, `null_content`, `empty_content`, `chosen_equals_rejected`,
 * `no_context`, `no_prompt`, `injection`. The join (docs/views.md): a pair aligned by `step_index` takes its
 * prompt from the window of `run_chosen`'s step at the pair's `index`, same `seat_index`, in the context.
 * Never a row with a blank side or a made-up prompt. `view` is named in the usage error when `env` has no context.
 */
export function usablePairs(view: ViewName, record: DpoRecord, env: ViewEnv, result: ViewResultBuilder<unknown>, paths: PairPaths): UsablePair[] {
  const context = env.context;
  if (context === null) throw contextMissing(view);
  const pairs: UsablePair[] = [];
  for (const pair of record.pairs) {
    // A pair's own faults first (the rule convert and pull drop pairs by); equal sides are judged once sanitized.
    const fault = pairDropReason(pair);
    if (fault === "unknown_alignment" || fault === "null_content") {
      result.drop(fault);
      continue;
    }
    const chosen = env.sanitize(pair.chosen.content as string);
    const rejected = env.sanitize(pair.rejected.content as string);
    if (chosen.text.trim().length === 0 || rejected.text.trim().length === 0) {
      result.drop("empty_content");
      continue;
    }
    // What the rows would carry: equal texts teach no preference, whatever their action types.
    if (chosen.text === rejected.text) {
      result.drop("chosen_equals_rejected");
      continue;
    }
    const step = context.step(record.run_chosen, record.seat_index, pair.index);
    if (step === undefined) {
      result.drop("no_context");
      continue;
    }
    const prompt = promptFromWindow(step.window, step.seatRole, env.sanitize, env.systemPrompt);
    if (prompt === null) {
      result.drop("no_prompt");
      continue;
    }
    const chosenTurn: Turn = { role: "assistant", content: chosen.text, changed: chosen.changed };
    const rejectedTurn: Turn = { role: "assistant", content: rejected.text, changed: rejected.changed };
    const texts = [...turnTexts(paths.prompt, prompt.turns), ...turnTexts(paths.chosen, [chosenTurn]), ...turnTexts(paths.rejected, [rejectedTurn])];
    if (!admitTexts(env, result, texts)) continue;
    if (prompt.trimmed) result.trimmed++;
    pairs.push({ pair, prompt: messagesOf(prompt.turns), chosen: messagesOf([chosenTurn]), rejected: messagesOf([rejectedTurn]) });
  }
  return pairs;
}
