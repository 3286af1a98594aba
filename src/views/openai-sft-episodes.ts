import type { ColumnType } from "../schema/column-type.js";
import { messagesColumn } from "./chat-message.js";
import type { ChatMessage } from "./chat-message.js";
import { episodeOf } from "./episode-turns.js";
import { conversationText } from "./training-text.js";
import { messagesOf } from "./turn.js";
import { turnWeights } from "./turn-weight.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import { ViewResultBuilder } from "./view-result.js";

/** A message of an episode's OpenAI line: an assistant message says whether it is trained on. */
export type WeightedMessage = ChatMessage | (ChatMessage & { weight: 0 | 1 });

/** A line of `openai-sft --episodes`: the OpenAI chat fine-tuning format, and no other key. */
export type OpenAiSftEpisodeRow = { messages: WeightedMessage[] };

/** `list<struct<role, content, weight>>`; `weight` is left out of a line where null, so only assistant messages carry it. */
const WEIGHTED_MESSAGES: ColumnType = messagesColumn({ name: "weight", type: { kind: "int64" }, nullable: true, omitNull: true });

/**
 * `openai-sft` with `--episodes`: one line per kept seat episode, the conversation `trl-messages` writes,
 * each assistant message weighted 0 or 1 by `env.turnWeight`. An episode none of whose turns weighs 1
 * trains on nothing: left out (`no_turns`).
 */
export const openAiSftEpisodes: View<"rl", OpenAiSftEpisodeRow> = {
  name: "openai-sft",
  ...traitsOf("openai-sft"),
  unit: "episode",
  columns: [{ name: "messages", type: WEIGHTED_MESSAGES, nullable: false }],
  trl: null,
  description: "Each seat's RL episode as an OpenAI chat fine-tuning line: what it saw as user messages, its actions as assistant messages, each weighted 0 or 1.",
  training: (row) => conversationText(messagesOf(row.messages)),
  rows(record, env) {
    const result = new ViewResultBuilder<OpenAiSftEpisodeRow>();
    const weight = turnWeights(record, env.turnWeight ?? "all", env.gamma);
    const episode = episodeOf(record, env, result, "messages[].content", (tuples) => weight(tuples) === 1);
    if (episode === null) return result.result();
    const messages = episode.turns.map((t): WeightedMessage => (t.role === "assistant" ? { role: t.role, content: t.content, weight: weight(t.tuples) } : { role: t.role, content: t.content }));
    result.rows.push({ messages });
    return result.result();
  },
};
