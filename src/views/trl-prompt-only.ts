import { actionSteps } from "./action-steps.js";
import { MESSAGES } from "./chat-message.js";
import type { ChatMessage } from "./chat-message.js";
import { STEP_KEY_COLUMNS, stepKeys } from "./row-keys.js";
import type { StepKeys } from "./row-keys.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import { ViewResultBuilder } from "./view-result.js";
import { messagesOf } from "./turn.js";

/** A row of `trl-prompt-only`: TRL's conversational prompt-only type. */
export type TrlPromptOnlyRow = { prompt: ChatMessage[] } & StepKeys;

/**
 * One row per decision state of an RL trajectory, for online trainers (GRPO, RLOO) that generate the
 * completion themselves: each action step's window as the prompt. What the agent then did is not the row's
 * business, so an action whose content is null or blank (a roll, a choice) still gives one; a
 * `blocked_or_idle` step is no decision (`no_action`).
 */
export const trlPromptOnly: View<"rl", TrlPromptOnlyRow> = {
  name: "trl-prompt-only",
  ...traitsOf("trl-prompt-only"),
  unit: "step",
  columns: [{ name: "prompt", type: MESSAGES, nullable: false }, ...STEP_KEY_COLUMNS],
  trl: { type: "prompt-only", trainer: "GRPOTrainer" },
  description: "Each RL decision state as a conversational prompt-only example: the transcript window an online trainer generates the reply to.",
  training: (row) => ({ prompt: row.prompt, completions: [] }),
  rows(record, env) {
    const result = new ViewResultBuilder<TrlPromptOnlyRow>();
    for (const step of actionSteps(record, env, result, { prompt: "prompt[].content", completion: null })) {
      result.rows.push({
        prompt: messagesOf(step.prompt.turns),
        ...stepKeys(record, step.tuple),
      });
    }
    return result.result();
  },
};
