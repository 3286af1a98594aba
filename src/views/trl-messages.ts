import { MESSAGES } from "./chat-message.js";
import type { ChatMessage } from "./chat-message.js";
import { episodeOf } from "./episode-turns.js";
import { EPISODE_KEY_COLUMNS, episodeKeys } from "./row-keys.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import { ViewResultBuilder } from "./view-result.js";
import { conversationText } from "./training-text.js";
import { messagesOf } from "./turn.js";

/** A row of `trl-messages`: TRL's conversational language-modeling type, one seat's episode. */
export type TrlMessagesRow = { messages: ChatMessage[]; run_id: string; seat_index: number; campaign_id: string };

/** One row per kept seat episode: what the seat saw as user turns, its actions as assistant turns. */
export const trlMessages: View<"rl", TrlMessagesRow> = {
  name: "trl-messages",
  ...traitsOf("trl-messages"),
  unit: "episode",
  columns: [{ name: "messages", type: MESSAGES, nullable: false }, ...EPISODE_KEY_COLUMNS],
  trl: { type: "language modeling", trainer: "SFTTrainer" },
  description: "Each seat's RL episode as one conversation: what it saw as user turns, its actions as assistant turns (assistant_only_loss trains on its actions).",
  training: (row) => conversationText(row.messages),
  rows(record, env) {
    const result = new ViewResultBuilder<TrlMessagesRow>();
    const episode = episodeOf(record, env, result, "messages[].content");
    if (episode !== null) result.rows.push({ messages: messagesOf(episode.turns), ...episodeKeys(record) });
    return result.result();
  },
};
