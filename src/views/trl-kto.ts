import { actionSteps } from "./action-steps.js";
import { MESSAGES } from "./chat-message.js";
import type { ChatMessage } from "./chat-message.js";
import { rewardLabel } from "./reward-label.js";
import { STEP_KEY_COLUMNS, stepKeys } from "./row-keys.js";
import type { StepKeys } from "./row-keys.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import { ViewResultBuilder } from "./view-result.js";
import { messagesOf } from "./turn.js";

/** A row of `trl-kto`: TRL's conversational unpaired-preference type. */
export type TrlKtoRow = { prompt: ChatMessage[]; completion: ChatMessage[]; label: boolean } & StepKeys;

/**
 * The rows of `trl-prompt-completion`, each labelled desirable or not: by default the step's
 * `scalar_reward > 0`; with `ktoLabel: "return_to_go"`, its return to go (discounted by `gamma`) `> 0`.
 */
export const trlKto: View<"rl", TrlKtoRow> = {
  name: "trl-kto",
  ...traitsOf("trl-kto"),
  unit: "step",
  columns: [
    { name: "prompt", type: MESSAGES, nullable: false },
    { name: "completion", type: MESSAGES, nullable: false },
    { name: "label", type: { kind: "bool" }, nullable: false },
    ...STEP_KEY_COLUMNS,
  ],
  trl: { type: "unpaired preference", trainer: "KTOTrainer" },
  description: "Each RL action step as a KTO example: prompt, completion and whether the step's reward was positive.",
  training: (row) => ({ prompt: row.prompt, completions: [row.completion] }),
  rows(record, env) {
    const result = new ViewResultBuilder<TrlKtoRow>();
    const steps = actionSteps(record, env, result, { prompt: "prompt[].content", completion: "completion[].content" });
    const label = rewardLabel(record, env.ktoLabel, env.gamma);
    for (const step of steps) {
      result.rows.push({
        prompt: messagesOf(step.prompt.turns),
        completion: messagesOf([step.completion]),
        label: label(step.tuple),
        ...stepKeys(record, step.tuple),
      });
    }
    return result.result();
  },
};
