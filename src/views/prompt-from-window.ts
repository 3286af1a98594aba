import type { Sanitizer } from "./sanitize-text.js";
import { speakerRole } from "./speaker-role.js";
import { mergedTurn, mergeText } from "./turn.js";
import type { MergingTurn, Turn } from "./turn.js";

/** A prompt built from a window: its messages, and whether own messages were trimmed off its ends. */
export interface Prompt {
  readonly turns: readonly Turn[];
  readonly trimmed: boolean;
}

/**
 * The prompt an RL step's action answers, from the step's transcript window (docs/views.md, "Prompts"):
 * 1. each message gets its chat role (`speakerRole`) and its sanitized text; messages left blank go;
 * 2. consecutive messages of one role are merged, so roles alternate (`mergeText`);
 * 3. the seat's own messages before the first other message and after the last are trimmed: a prompt starts
 *    and ends with `user` (it must end so for a generation prompt; starting so is what alternating templates want);
 * 4. an optional system message goes first.
 * Null when no `user` message is left: the step has no prompt (`no_prompt`). Given a `TextCheck`, a turn whose
 * texts no injection pattern can match says so (`inject: false`).
 */
export function promptFromWindow(
  window: readonly { readonly role: string; readonly content: string }[],
  seatRole: string,
  sanitize: Sanitizer,
  systemPrompt?: string,
): Prompt | null {
  const merged: MergingTurn[] = [];
  for (const message of window) {
    const said = sanitize(message.content);
    if (said.text.trim().length === 0) continue;
    mergeText(merged, speakerRole(message.role, seatRole), said, {});
  }
  const first = merged.findIndex((m) => m.role === "user");
  if (first === -1) return null;
  const last = merged.findLastIndex((m) => m.role === "user");
  const kept = merged.slice(first, last + 1);
  const turns: Turn[] = kept.map(mergedTurn);
  if (systemPrompt !== undefined) turns.unshift({ role: "system", content: systemPrompt, changed: false });
  return { turns, trimmed: kept.length !== merged.length };
}
