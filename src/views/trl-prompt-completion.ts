import type { Field } from "../schema/column-type.js";
import { MESSAGES } from "./chat-message.js";
import type { ChatMessage } from "./chat-message.js";
import { promptCompletionWriter } from "./prompt-completion-writer.js";
import { STEP_KEY_COLUMNS } from "./row-keys.js";
import type { StepKeys } from "./row-keys.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import { writtenRows } from "./written-rows.js";

/** A row of `trl-prompt-completion`: TRL's conversational prompt-completion type. */
export type TrlPromptCompletionRow = { prompt: ChatMessage[]; completion: ChatMessage[] } & StepKeys;

const COLUMNS: readonly Field[] = [{ name: "prompt", type: MESSAGES, nullable: false }, { name: "completion", type: MESSAGES, nullable: false }, ...STEP_KEY_COLUMNS];

/** One row per RL action step with a non-blank action: the window as prompt, the action as completion. */
export const trlPromptCompletion: View<"rl", TrlPromptCompletionRow> = {
  name: "trl-prompt-completion",
  ...traitsOf("trl-prompt-completion"),
  unit: "step",
  columns: COLUMNS,
  trl: { type: "prompt-completion", trainer: "SFTTrainer" },
  description: "Each RL action step as a conversational prompt-completion example: the transcript window answered by the action.",
  rows: writtenRows(COLUMNS, promptCompletionWriter),
  training: (row) => ({ prompt: row.prompt, completions: [row.completion] }),
  write: promptCompletionWriter,
};
