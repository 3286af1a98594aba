import type { RlRecord, RlTuple } from "../formats/rl.js";
import type { ChatRole } from "./chat-message.js";
import { admitTexts, turnTexts } from "./admit-texts.js";
import type { Checked } from "./sanitize-text.js";
import { speakerRole } from "./speaker-role.js";
import { stepAction } from "./step-action.js";
import { mergedTurn, mergeText } from "./turn.js";
import type { MergingTurn, Turn } from "./turn.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";
import { WindowChecks } from "./window-checks.js";

/** An assistant turn of an episode and the tuples whose actions it says (more than one only when merged). */
export interface EpisodeTurn extends Turn {
  readonly tuples: readonly RlTuple[];
}

/** A seat's episode as one conversation: an optional system turn, then user and assistant turns alternating, the last an assistant's. */
export interface Episode {
  readonly turns: readonly EpisodeTurn[];
}

interface Said {
  readonly role: Exclude<ChatRole, "system">;
  readonly text: string;
}

interface Building extends MergingTurn {
  readonly tuples: RlTuple[];
}

/**
 * A seat's RL trajectory as one conversation (docs/views.md, "Episodes"): what the seat saw as user turns,
 * its actions as assistant turns. Each step's window overlaps the transcript so far (the emulator's repeats
 * the last narration and the seat's own last message): only the messages after the longest suffix of the
 * transcript that the window begins with are new. New messages of others become user turns; the seat's own
 * window messages are never turns (only its actions are), but they take part in the overlap. Texts are
 * sanitized as in the step views; consecutive turns of one role are merged (blank line between), so roles
 * alternate. An action with no user turn before it is `no_prompt`; idle steps `no_action`, null or blank
 * actions `null_content`/`empty_content` (steps, counted in `result`); user turns after the last assistant
 * turn are cut. Null when no assistant turn is left, or none that `trains` (`no_turns`), or a text matched an injection pattern
 * under `onInjection: drop` (`injection`): episodes, counted in `result` too.
 */
export function episodeOf(record: RlRecord, env: ViewEnv, result: ViewResultBuilder<unknown>, path: string, trains: (tuples: readonly RlTuple[]) => boolean = () => true): Episode | null {
  const checks = new WindowChecks(env.check);
  const said: Said[] = [];
  const turns: Building[] = [];
  for (const tuple of record.tuples) {
    checks.next();
    const window: (Said & { checked: Checked })[] = [];
    for (const m of tuple.state.transcript_window) {
      const checked = checks.of(m.content);
      if (checked.text.trim().length > 0) window.push({ role: speakerRole(m.role, record.seat.role), text: checked.text, checked });
    }
    for (const m of window.slice(overlap(said, window))) {
      said.push(m);
      if (m.role === "user") mergeText(turns, "user", m.checked, { tuples: [] });
    }
    const action = stepAction(tuple, env, result);
    if (action === null) continue;
    said.push({ role: "assistant", text: action.text });
    if (turns.length === 0) {
      result.drop("no_prompt");
      continue;
    }
    mergeText(turns, "assistant", action, { tuples: [] }).tuples.push(tuple);
  }
  while (turns.at(-1)?.role === "user") turns.pop();
  if (!turns.some((t) => t.role === "assistant" && trains(t.tuples))) {
    result.drop("no_turns");
    return null;
  }
  const built: EpisodeTurn[] = turns.map((t) => ({ ...mergedTurn(t), tuples: t.tuples }));
  if (!admitTexts(env, result, turnTexts(path, built))) return null;
  if (env.systemPrompt !== undefined) built.unshift({ role: "system", content: env.systemPrompt, changed: false, tuples: [] });
  return { turns: built };
}

/** The length of the longest suffix of `said` that `window` begins with (0 when none). */
function overlap(said: readonly Said[], window: readonly Said[]): number {
  for (let k = Math.min(said.length, window.length); k > 0; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++) {
      const a = said[said.length - k + i] as Said;
      const b = window[i] as Said;
      same = a.role === b.role && a.text === b.text;
    }
    if (same) return k;
  }
  return 0;
}
