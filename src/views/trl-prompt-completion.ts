import { actionSteps } from "./action-steps.js";
import { MESSAGES } from "./chat-message.js";
import type { ChatMessage } from "./chat-message.js";
import { promptCompletionWriter } from "./prompt-completion-writer.js";
import { messagesOf } from "./prompt-from-window.js";
import { STEP_KEY_COLUMNS } from "./step-keys.js";
import type { StepKeys } from "./step-keys.js";
import type { View } from "./view.js";
import { ViewResultBuilder } from "./view-result.js";

/** A row of `trl-prompt-completion`: TRL's conversational prompt-completion type. */
export type TrlPromptCompletionRow = { prompt: ChatMessage[]; completion: ChatMessage[] } & StepKeys;

/** One row per RL action step with a non-blank action: the window as prompt, the action as completion. */
export const trlPromptCompletion: View<"rl", TrlPromptCompletionRow> = {
  name: "trl-prompt-completion",
  from: "rl",
  needsContext: false,
  unit: "step",
  columns: [
    { name: "prompt", type: MESSAGES, nullable: false },
    { name: "completion", type: MESSAGES, nullable: false },
    ...STEP_KEY_COLUMNS,
  ],
  outputs: ["parquet", "jsonl"],
  trl: { type: "prompt-completion", trainer: "SFTTrainer" },
  description: "Each RL action step as a conversational prompt-completion example: the transcript window answered by the action.",
  rows(record, env) {
    const result = new ViewResultBuilder<TrlPromptCompletionRow>();
    for (const step of actionSteps(record, env, result, { prompt: "prompt[].content", completion: "completion[].content" })) {
      result.rows.push({
        prompt: messagesOf(step.prompt.turns),
        completion: messagesOf([step.completion]),
        run_id: record.run_id,
        seat_index: record.seat.seat_index,
        step_index: step.tuple.index,
        campaign_id: record.scenario.campaign_id,
      });
    }
    return result.result();
  },
  training: (row) => ({ prompt: row.prompt, completions: [row.completion] }),
  write: promptCompletionWriter,
};
