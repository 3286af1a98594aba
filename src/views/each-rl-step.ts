import type { RlRecord, RlTuple } from "../formats/rl.js";
import { admitTexts } from "./admit-texts.js";
import type { RowText } from "./admit-texts.js";
import { returnToGo, stepReward } from "./return-to-go.js";
import type { Checked } from "./sanitize-text.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";
import { WindowChecks } from "./window-checks.js";

/** A window message of a row: its service role, its text checked. */
export interface CheckedMessage extends Checked {
  readonly role: string;
}

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
  emit: (tuple: RlTuple, i: number, window: readonly CheckedMessage[], action: Checked | null, returnToGo: number) => void,
): void {
  const returns = returnToGo(record.tuples.map((t) => stepReward(t.reward)), env.gamma);
  const checks = new WindowChecks(env.check);
  for (const [i, tuple] of record.tuples.entries()) {
    checks.next();
    const window = tuple.state.transcript_window.map((m): CheckedMessage => ({ role: m.role, ...checks.of(m.content) }));
    const content = tuple.action?.content ?? null;
    const action = content === null ? null : env.check(content);
    const texts: RowText[] = window.map((m) => ({ path: "transcript_window[].content", text: m.text, changed: m.changed, inject: m.inject }));
    if (action !== null) texts.push({ path: "action_content", text: action.text, changed: action.changed, inject: action.inject });
    if (admitTexts(env, texts) === "injection") {
      result.drop("injection");
      continue;
    }
    emit(tuple, i, window, action, returns[i] as number);
  }
}
