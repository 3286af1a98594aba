import type { ChatMessage, ChatRole } from "./chat-message.js";
import type { Checked, Sanitized } from "./sanitize-text.js";

/** A message being built, with whether sanitizing changed any text it holds (for the text audit). */
export interface Turn extends ChatMessage {
  readonly changed: boolean;
  /** Given a `TextCheck` as sanitizer: false when no injection pattern can match the content, so the audit skips it. */
  readonly inject?: boolean;
}

/** Consecutive messages of one role are joined with a blank line between them. */
export const MERGE_SEPARATOR = "\n\n";

/** A turn being built from the texts of one role that follow each other (`mergeText`). */
export interface MergingTurn {
  readonly role: Exclude<ChatRole, "system">;
  readonly parts: string[];
  changed: boolean;
  inject: boolean | undefined;
}

/**
 * Adds a text said as `role` to `turns`: into the last turn when it has the same role, so roles alternate
 * (Llama 2 and Mistral templates raise otherwise), else as a new turn with `extra`. The turn it went into.
 * A merged turn is known clear of injection patterns only when every part is (the separator holds nothing
 * the prefilter looks for and stops every word it reads across); otherwise its text is scanned whole.
 */
export function mergeText<T extends MergingTurn>(turns: T[], role: T["role"], said: Sanitized & Partial<Checked>, extra: Omit<T, keyof MergingTurn>): T {
  const last = turns.at(-1);
  if (last !== undefined && last.role === role) {
    last.parts.push(said.text);
    last.changed ||= said.changed;
    last.inject = last.inject === false && said.inject === false ? false : undefined;
    return last;
  }
  const turn = { ...extra, role, parts: [said.text], changed: said.changed, inject: said.inject } as T;
  turns.push(turn);
  return turn;
}

/** The turn its parts make: joined by {@link MERGE_SEPARATOR}, `inject` left out when unknown. */
export function mergedTurn(t: MergingTurn): Turn {
  const content = t.parts.length === 1 ? (t.parts[0] as string) : t.parts.join(MERGE_SEPARATOR);
  return t.inject === undefined ? { role: t.role, content, changed: t.changed } : { role: t.role, content, changed: t.changed, inject: t.inject };
}

/** The messages of turns, without their audit flags or weights: what a row carries. */
export function messagesOf(turns: readonly ChatMessage[]): ChatMessage[] {
  return turns.map((t) => ({ role: t.role, content: t.content }));
}
