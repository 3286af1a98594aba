import type { RlRecord, RlTuple } from "../formats/rl.js";
import { admitTexts, countText } from "./admit-texts.js";
import type { RowText } from "./admit-texts.js";
import { returnToGo, stepReward } from "./return-to-go.js";
import type { Checked } from "./sanitize-text.js";
import type { Utf8Range } from "./utf8-range.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";
import { WindowChecks } from "./window-checks.js";

/** An action's content checked; `bytes` as in {@link CheckedMessage}. */
export interface CheckedText extends Checked {
  readonly bytes: Utf8Range | null;
}

/**
 * A window message of a row: its service role, its text checked, at its path for the audit. `bytes`: the
 * text's UTF-8 as the parallel engine's walk read it, when `ViewEnv.clearBytes` cleared them (`text` is then
 * empty: the bytes are the text, unchanged, matching no pattern); else null.
 */
export interface CheckedMessage extends RowText {
  readonly role: string;
  readonly bytes: Utf8Range | null;
}

const WINDOW_PATH = "transcript_window[].content";
const ACTION_PATH = "action_content";

/**
 * The tuples of an RL record that give a row, in order, each with its window and action content checked
 * (sanitized, prefiltered for the injection scan) and its return to go; a tuple whose texts match an
 * injection pattern under `onInjection: drop` is counted in `result` instead. Kept rows' texts are counted in
 * the audit. What `rows` and `write` both build their rows from.
 */
export function eachRlStep(
  record: RlRecord,
  env: ViewEnv,
  result: ViewResultBuilder<unknown>,
  emit: (tuple: RlTuple, i: number, window: readonly CheckedMessage[], action: CheckedText | null, returnToGo: number) => void,
): void {
  const returns = returnToGo(record.tuples.map((t) => stepReward(t.reward)), env.gamma);
  const checks = new WindowChecks(env.check);
  const clearBytes = env.clearBytes;
  const tuples = record.tuples;
  for (let i = 0; i < tuples.length; i++) {
    const tuple = tuples[i] as RlTuple;
    checks.next();
    const window = tuple.state.transcript_window.map((m): CheckedMessage => {
      // The parallel engine's walk hands rl-steps these texts as their bytes (fast/view-reads.ts): written as
      // they are when cleared, else decoded and checked as any text.
      const content = m.content as string | Utf8Range;
      if (typeof content === "string") return checkedMessage(m.role, checks.of(content));
      if (clearBytes !== undefined && checks.clears(content, clearBytes)) return { role: m.role, path: WINDOW_PATH, text: "", changed: false, inject: false, bytes: content };
      return checkedMessage(m.role, checks.of(content.text()));
    });
    const content = (tuple.action?.content ?? null) as string | Utf8Range | null;
    const action = content === null ? null : checkedText(env, content);
    const actionText: RowText | null = action === null ? null : { path: ACTION_PATH, text: action.text, changed: action.changed, inject: action.inject };
    if (env.onInjection !== "drop") {
      // Every text is counted and the row kept, as admitTexts does, without a list of them per row.
      for (let m = 0; m < window.length; m++) countText(env, window[m] as CheckedMessage);
      if (actionText !== null) countText(env, actionText);
    } else if (admitTexts(env, actionText === null ? window : [...window, actionText]) === "injection") {
      result.drop("injection");
      continue;
    }
    emit(tuple, i, window, action, returns[i] as number);
  }
}

/** A text given as a string or as the walk's bytes (a cleared one stays bytes), checked. */
function checkedText(env: ViewEnv, content: string | Utf8Range): CheckedText {
  if (typeof content === "string") return { ...env.check(content), bytes: null };
  if (env.clearBytes?.(content) === true) return { text: "", changed: false, inject: false, bytes: content };
  return { ...env.check(content.text()), bytes: null };
}

function checkedMessage(role: string, c: Checked): CheckedMessage {
  return { role, path: WINDOW_PATH, text: c.text, changed: c.changed, inject: c.inject, bytes: null };
}
