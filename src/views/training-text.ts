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
