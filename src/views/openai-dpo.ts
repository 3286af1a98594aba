import { MESSAGES } from "./chat-message.js";
import type { ChatMessage } from "./chat-message.js";
import { usablePairs } from "./usable-pairs.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import { ViewResultBuilder } from "./view-result.js";

/** A line of `openai-dpo`: the OpenAI preference fine-tuning format, and no other key. */
export type OpenAiDpoRow = { input: { messages: ChatMessage[] }; preferred_output: ChatMessage[]; non_preferred_output: ChatMessage[] };

/** One line per usable DPO pair, joined as `trl-preference` is. */
export const openAiDpo: View<"dpo", OpenAiDpoRow> = {
  name: "openai-dpo",
  ...traitsOf("openai-dpo"),
  unit: "pair",
  columns: [
    { name: "input", type: { kind: "struct", fields: [{ name: "messages", type: MESSAGES, nullable: false }] }, nullable: false },
    { name: "preferred_output", type: MESSAGES, nullable: false },
    { name: "non_preferred_output", type: MESSAGES, nullable: false },
  ],
  trl: null,
  description: "Each usable DPO pair as an OpenAI preference fine-tuning line, its prompt joined from the chosen run's RL step.",
  training: (row) => ({ prompt: row.input.messages, completions: [row.preferred_output, row.non_preferred_output] }),
  rows(record, env) {
    const result = new ViewResultBuilder<OpenAiDpoRow>();
    const paths = { prompt: "input.messages[].content", chosen: "preferred_output[].content", rejected: "non_preferred_output[].content" };
    for (const p of usablePairs(openAiDpo.name, record, env, result, paths)) {
      result.rows.push({
        input: { messages: p.prompt },
        preferred_output: p.chosen,
        non_preferred_output: p.rejected,
      });
    }
    return result.result();
  },
};
