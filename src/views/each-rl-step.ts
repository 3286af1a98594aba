import { admitTexts, countText } from "./admit-texts.js";
import type { RowText } from "./admit-texts.js";
import { returnToGo, stepReward } from "./return-to-go.js";
import type { RlStepsRecord, RlStepsTuple } from "./rl-steps-record.js";
import type { Checked } from "./sanitize-text.js";
import { StepLabels } from "./step-labels.js";
import type { SanitizedLabels } from "./step-labels.js";
import type { Utf8Range } from "./utf8-range.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";
import { WindowChecks } from "./window-checks.js";

/** An action's content checked; `bytes` as in {@link CheckedMessage}. */
export interface CheckedText extends Checked {
  readonly bytes: Utf8Range | null;
}

/**
 * A window message of a row: its service role (sanitized), its text checked, at its path for the audit.
 * `bytes`: the text's UTF-8 as the parallel engine's walk read it, when `ViewEnv.clearBytes` cleared them
 * (`text` is then empty: the bytes are the text, unchanged, matching no pattern); else null.
 */
export interface CheckedMessage extends RowText {
  readonly role: string;
  readonly bytes: Utf8Range | null;
}

/**
 * A step's window as `emit` gets it: its messages checked, or `CLEARED` when every message's content is the
 * walk's bytes and `ViewEnv.clearBytes` cleared them all, so the row holds `tuple.state.transcript_window` as
 * it is (each content a {@link Utf8Range}); no message object is made per row then (docs/decisions.md).
 */
export type StepWindow = readonly CheckedMessage[] | typeof CLEARED;

/** See {@link StepWindow}. */
export const CLEARED = "cleared";

type WindowMessage = RlStepsTuple["state"]["transcript_window"][number];

const WINDOW_PATH = "transcript_window[].content";
const ACTION_PATH = "action_content";

/**
 * The tuples of an RL record that give a row, in order, each with its window and action content checked
 * (sanitized, prefiltered for the injection scan), its labels checked (`StepLabels`: window roles, action
 * type, seat role, conditions; `labels` null when sanitizing changed none, so they are written as they are)
 * and its return to go; a tuple whose texts match an injection pattern under `onInjection: drop` is counted
 * in `result` instead. Kept rows' texts are counted in the audit (the seat's role once a row: the rows write
 * it as `env.label` gives it). What `rl-steps` writes its rows from.
 */
export function eachRlStep(
  record: RlStepsRecord,
  env: ViewEnv,
  result: ViewResultBuilder<unknown>,
  emit: (tuple: RlStepsTuple, i: number, window: StepWindow, action: CheckedText | null, returnToGo: number, labels: SanitizedLabels | null) => void,
): void {
  const returns = returnToGo(record.tuples.map((t) => stepReward(t.reward)), env.gamma);
  const checks = new WindowChecks(env.check);
  const labels = new StepLabels(env.label);
  labels.record(record.seat.role);
  const clearBytes = env.clearBytes;
  const tuples = record.tuples;
  for (let i = 0; i < tuples.length; i++) {
    const tuple = tuples[i] as RlStepsTuple;
    checks.next();
    labels.step(tuple);
    const messages = tuple.state.transcript_window;
    // The parallel engine's walk hands rl-steps these texts as their bytes (fast/view-reads.ts): written as
    // they are when cleared, else decoded and checked as any text. Mostly all of a window's are cleared.
    const cleared = clearBytes === undefined ? 0 : clearedPrefix(messages, checks, clearBytes);
    const roles = labels.rolesChanged ? (labels.values as SanitizedLabels).roles : null;
    const window: StepWindow = cleared === messages.length && roles === null ? CLEARED : checkedWindow(messages, cleared, checks, clearBytes, roles);
    const content = tuple.action?.content ?? null;
    const action = content === null ? null : checkedText(env, content);
    if (env.onInjection !== "drop") {
      // Every text is counted and the row kept, as admitTexts does, without a list of them per row.
      if (window === CLEARED) env.audit.addUnchanged(WINDOW_PATH, cleared);
      else for (let m = 0; m < window.length; m++) countText(env, window[m] as CheckedMessage);
      if (action !== null) countAction(env, action);
      for (let k = 0; k < labels.texts.length; k++) countText(env, labels.texts[k] as RowText);
    } else {
      // Cleared texts match no pattern: only the others can drop the row.
      const texts: RowText[] = window === CLEARED ? [] : [...window];
      if (action !== null) texts.push(actionText(action));
      texts.push(...labels.texts);
      if (!admitTexts(env, result, texts)) continue;
      if (window === CLEARED) env.audit.addUnchanged(WINDOW_PATH, cleared);
    }
    labels.keep();
    emit(tuple, i, window, action, returns[i] as number, labels.values);
  }
  labels.flush(env.audit);
}

/** How many of `messages`, from the first, are the walk's bytes that `clearBytes` clears. */
function clearedPrefix(messages: RlStepsTuple["state"]["transcript_window"], checks: WindowChecks, clearBytes: (text: Utf8Range) => boolean): number {
  let n = 0;
  for (; n < messages.length; n++) {
    const { content } = messages[n] as WindowMessage;
    if (typeof content === "string" || !checks.clears(content, clearBytes)) break;
  }
  return n;
}

/**
 * The messages of a window that is not all cleared bytes (or whose roles sanitizing changed: `roles`, written
 * in their place), checked; the first `cleared` already are, and the one at `cleared` is not. One after it
 * that `clearBytes` clears stays bytes too, as the prefix does: only the flagged texts are decoded and checked
 * (docs/decisions.md).
 */
function checkedWindow(
  messages: RlStepsTuple["state"]["transcript_window"],
  cleared: number,
  checks: WindowChecks,
  clearBytes: ((text: Utf8Range) => boolean) | undefined,
  roles: readonly string[] | null,
): CheckedMessage[] {
  const window = new Array<CheckedMessage>(messages.length);
  for (let m = 0; m < messages.length; m++) {
    const message = messages[m] as WindowMessage;
    const role = roles === null ? message.role : (roles[m] as string);
    const content = message.content;
    if (typeof content === "string") window[m] = checkedMessage(role, checks.of(content));
    else if (m < cleared || (m > cleared && clearBytes !== undefined && checks.clears(content, clearBytes))) window[m] = clearedMessage(role, content);
    else window[m] = checkedMessage(role, checks.of(content.text()));
  }
  return window;
}

/** A message whose bytes `clearBytes` cleared: unchanged, matching no pattern. */
function clearedMessage(role: string, bytes: Utf8Range): CheckedMessage {
  return { role, path: WINDOW_PATH, text: "", changed: false, inject: false, bytes };
}

/** A text given as a string or as the walk's bytes (a cleared one stays bytes), checked. */
function checkedText(env: ViewEnv, content: string | Utf8Range): CheckedText {
  if (typeof content === "string") return { ...env.check(content), bytes: null };
  if (env.clearBytes?.(content) === true) return { text: "", changed: false, inject: false, bytes: content };
  return { ...env.check(content.text()), bytes: null };
}

function actionText(action: CheckedText): RowText {
  return { path: ACTION_PATH, text: action.text, changed: action.changed, inject: action.inject };
}

/** Counts a kept row's action content: a cleared one is unchanged and matches no pattern. */
function countAction(env: ViewEnv, action: CheckedText): void {
  if (action.bytes !== null) env.audit.addUnchanged(ACTION_PATH, 1);
  else countText(env, actionText(action));
}

function checkedMessage(role: string, c: Checked): CheckedMessage {
  return { role, path: WINDOW_PATH, text: c.text, changed: c.changed, inject: c.inject, bytes: null };
}
