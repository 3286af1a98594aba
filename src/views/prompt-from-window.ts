import type { ChatMessage, ChatRole } from "./chat-message.js";
import type { Checked, Sanitizer } from "./sanitize-text.js";
import { speakerRole } from "./speaker-role.js";

/** A message being built, with whether sanitizing changed any text it holds (for the text audit). */
export interface Turn extends ChatMessage {
  readonly changed: boolean;
  /** Given a `TextCheck` as sanitizer: false when no injection pattern can match the content, so the audit skips it. */
  readonly inject?: boolean;
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
 * Null when no `user` message is left: the step has no prompt (`no_prompt`). Given a `TextCheck`, a turn whose
 * texts no injection pattern can match says so (`inject: false`): nor can their merge, as the separator holds
 * nothing the prefilter looks for and stops every word it reads across.
 */
export function promptFromWindow(
  window: readonly { readonly role: string; readonly content: string }[],
  seatRole: string,
  sanitize: Sanitizer,
  systemPrompt?: string,
): Prompt | null {
  const merged: { role: Exclude<ChatRole, "system">; parts: string[]; changed: boolean; inject: boolean | undefined }[] = [];
  for (const message of window) {
    const checked: Partial<Checked> = sanitize(message.content);
    const { text, changed } = checked as Checked;
    if (text.trim().length === 0) continue;
    const role = speakerRole(message.role, seatRole);
    const last = merged.at(-1);
    if (last !== undefined && last.role === role) {
      last.parts.push(text);
      last.changed ||= changed;
      // Known clear only when every part is; otherwise the merged text is scanned whole.
      last.inject = last.inject === false && checked.inject === false ? false : undefined;
    } else {
      merged.push({ role, parts: [text], changed, inject: checked.inject });
    }
  }
  const first = merged.findIndex((m) => m.role === "user");
  if (first === -1) return null;
  const last = merged.findLastIndex((m) => m.role === "user");
  const kept = merged.slice(first, last + 1);
  const turns: Turn[] = kept.map((m) => {
    const content = m.parts.length === 1 ? (m.parts[0] as string) : m.parts.join(MERGE_SEPARATOR);
    return m.inject === undefined ? { role: m.role, content, changed: m.changed } : { role: m.role, content, changed: m.changed, inject: m.inject };
  });
  if (systemPrompt !== undefined) turns.unshift({ role: "system", content: systemPrompt, changed: false });
  return { turns, trimmed: kept.length !== merged.length };
}

/** The messages of turns, without the audit flag: what a row carries. */
export function messagesOf(turns: readonly Turn[]): ChatMessage[] {
  return turns.map((t) => ({ role: t.role, content: t.content }));
}
