import type { ChatMessage, ChatRole } from "./chat-message.js";
import type { Sanitizer } from "./sanitize-text.js";
import { speakerRole } from "./speaker-role.js";

/** A message being built, with whether sanitizing changed any text it holds (for the text audit). */
export interface Turn extends ChatMessage {
  readonly changed: boolean;
}

/** A prompt built from a window: its messages, and whether own messages were trimmed off its ends. */
export interface Prompt {
  readonly turns: readonly Turn[];
  readonly trimmed: boolean;
}

/** Consecutive messages of one role are joined with a blank line between them. */
export const MERGE_SEPARATOR = "\n\n";

/**
 * The prompt an RL step's action answers, from the step's transcript window (docs/views.md, "Prompts"):
 * 1. each message gets its chat role (`speakerRole`) and its sanitized text; messages left blank go;
 * 2. consecutive messages of one role are merged, so roles alternate (Llama 2 and Mistral templates raise
 *    otherwise);
 * 3. the seat's own messages before the first other message and after the last are trimmed: a prompt starts
 *    and ends with `user` (it must end so for a generation prompt; starting so is what alternating templates want);
 * 4. an optional system message goes first.
 * Null when no `user` message is left: the step has no prompt (`no_prompt`).
 */
export function promptFromWindow(
  window: readonly { readonly role: string; readonly content: string }[],
  seatRole: string,
  sanitize: Sanitizer,
  systemPrompt?: string,
): Prompt | null {
  const merged: { role: Exclude<ChatRole, "system">; parts: string[]; changed: boolean }[] = [];
  for (const message of window) {
    const { text, changed } = sanitize(message.content);
    if (text.trim().length === 0) continue;
    const role = speakerRole(message.role, seatRole);
    const last = merged.at(-1);
    if (last !== undefined && last.role === role) {
      last.parts.push(text);
      last.changed ||= changed;
    } else {
      merged.push({ role, parts: [text], changed });
    }
  }
  const first = merged.findIndex((m) => m.role === "user");
  if (first === -1) return null;
  const last = merged.findLastIndex((m) => m.role === "user");
  const kept = merged.slice(first, last + 1);
  const turns: Turn[] = kept.map((m) => ({ role: m.role, content: m.parts.join(MERGE_SEPARATOR), changed: m.changed }));
  if (systemPrompt !== undefined) turns.unshift({ role: "system", content: systemPrompt, changed: false });
  return { turns, trimmed: kept.length !== merged.length };
}

/** The messages of turns, without the audit flag: what a row carries. */
export function messagesOf(turns: readonly Turn[]): ChatMessage[] {
  return turns.map((t) => ({ role: t.role, content: t.content }));
}
