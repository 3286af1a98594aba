import { actionSteps } from "./action-steps.js";
import { MESSAGES } from "./chat-message.js";
import type { ChatMessage } from "./chat-message.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import { ViewResultBuilder } from "./view-result.js";
import { conversationText } from "./training-text.js";
import { messagesOf } from "./turn.js";

/** A line of `openai-sft`: the OpenAI chat fine-tuning format, and no other key. */
export type OpenAiSftRow = { messages: ChatMessage[] };

/** One line per RL action step: the prompt's messages, then the action as the assistant's reply. */
export const openAiSft: View<"rl", OpenAiSftRow> = {
  name: "openai-sft",
  ...traitsOf("openai-sft"),
  unit: "step",
  columns: [{ name: "messages", type: MESSAGES, nullable: false }],
  trl: null,
  description: "Each RL action step as an OpenAI chat fine-tuning line: the window's messages, then the action as the assistant's reply.",
  training: (row) => conversationText(row.messages),
  rows(record, env) {
    const result = new ViewResultBuilder<OpenAiSftRow>();
    // One path for both: an OpenAI line has the one list.
    for (const step of actionSteps(record, env, result, { prompt: "messages[].content", completion: "messages[].content" })) {
      result.rows.push({ messages: messagesOf([...step.prompt.turns, step.completion]) });
    }
    return result.result();
  },
};
