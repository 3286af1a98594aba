import type { ChatMessage } from "./chat-message.js";

/**
 * What a row trains on, for counting its tokens: the prompt and each completion that follows it (one for SFT
 * and KTO rows, chosen and rejected for a preference pair, none for a prompt-only row, which counts its prompt).
 * A token budget judges the longest.
 */
export interface TrainingText {
  readonly prompt: readonly ChatMessage[];
  readonly completions: readonly (readonly ChatMessage[])[];
}

/** A conversation's training text: the messages before the last as the prompt, the last as the completion. */
export function conversationText(messages: readonly ChatMessage[]): TrainingText {
  return { prompt: messages.slice(0, -1), completions: [messages.slice(-1)] };
}
