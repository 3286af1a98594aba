import type { ColumnBuffer } from "../parquet/column-buffer.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import type { LeafWriter } from "../parquet/leaf-writer.js";
import { CLEARED, eachRlStep } from "./each-rl-step.js";
import { isStringifyForm } from "./is-stringify-form.js";
import type { CheckedMessage, CheckedText, StepWindow } from "./each-rl-step.js";
import type { SanitizedLabels } from "./step-labels.js";
import { LeafColumns } from "./leaf-columns.js";
import type { RlStepsRecord, RlStepsTuple } from "./rl-steps-record.js";
import type { RowOut } from "./leaf-columns.js";
import { Utf8Range } from "./utf8-range.js";
import type { ViewEnv } from "./view-env.js";
import { ViewResultBuilder } from "./view-result.js";
import type { ViewWritten } from "./view-result.js";

/**
 * `rl-steps`' rows, written straight into the leaves of `plan` (its columns): a null is a missing entry at
 * level 0, an observation its JSON text. The view's one implementation of its rows (`rlSteps.rows` reads
 * them back), without a row object and the generic shredding of it (docs/decisions.md).
 */
export function rlStepsWriter(plan: ColumnPlan): (record: RlStepsRecord, env: ViewEnv, out: RowOut) => ViewWritten {
  const c = new LeafColumns(plan);
  const runId = c.leaf("run_id");
  const seatIndex = c.leaf("seat_index");
  const role = c.leaf("role");
  const agentKeyId = c.leaf("agent_key_id");
  const campaignId = c.leaf("campaign_id");
  const stepIndex = c.leaf("step_index");
  const kind = c.leaf("kind");
  const observation = c.leaf("observation");
  const actionType = c.leaf("action_type");
  const actionContent = c.leaf("action_content");
  const checksPassed = c.leaf("checks_passed");
  const checksFailed = c.leaf("checks_failed");
  const scalarReward = c.leaf("scalar_reward");
  const progressDelta = c.leaf("progress_delta");
  const terminalReward = c.leaf("terminal_reward");
  const isLast = c.leaf("is_last");
  const returnToGo = c.leaf("return_to_go");
  const window = c.messages("transcript_window");
  const conditionsMet = c.strings("conditions_met");
  const perRecord = [runId, seatIndex, role, agentKeyId, campaignId];
  /** Per column of `perRecord`, where the record's value begins. */
  const from = perRecord.map(() => 0);
  // One `emit` for every record, the record's own state in these, not a closure per record (docs/decisions.md
  // "hot code shape", compile size).
  let env: ViewEnv;
  let leaves: readonly LeafWriter[] = [];
  let out: RowOut;
  let last = -1;
  let rows = 0;
  const at = (i: number): LeafWriter => leaves[i] as LeafWriter;
  const emit = (tuple: RlStepsTuple, i: number, messages: StepWindow, action: CheckedText | null, rtg: number, labels: SanitizedLabels | null): void => {
    out.beginRow();
    rows++;
    at(stepIndex).int64(tuple.index, 0);
    at(kind).text(tuple.kind, 0);
    jsonText(at(observation), tuple.state.observation, env);
    if (messages === CLEARED) {
      // Every content is the walk's bytes, cleared (CLEARED says so; the type cannot): written as they are,
      // from the record's own messages.
      const own = tuple.state.transcript_window;
      if (own.length === 0) window.empty(leaves);
      for (let m = 0; m < own.length; m++) {
        const { role: name, content } = own[m] as RlStepsTuple["state"]["transcript_window"][number];
        if (typeof content === "string") window.message(leaves, m, name, content);
        else window.messageBytes(leaves, m, name, content);
      }
    } else {
      if (messages.length === 0) window.empty(leaves);
      for (let m = 0; m < messages.length; m++) {
        const message = messages[m] as CheckedMessage;
        if (message.bytes === null) window.message(leaves, m, message.role, message.text);
        else window.messageBytes(leaves, m, message.role, message.bytes);
      }
    }
    text(at(actionType), labels === null ? (tuple.action?.action_type ?? null) : labels.actionType);
    if (action?.bytes == null) text(at(actionContent), action?.text ?? null);
    else at(actionContent).bytes(action.bytes.bytes, action.bytes.start, action.bytes.end, 0);
    const { reward } = tuple;
    at(checksPassed).int64(reward.checks_passed, 0);
    at(checksFailed).int64(reward.checks_failed, 0);
    conditionsMet.write(leaves, labels === null ? reward.conditions_met : labels.conditions);
    at(scalarReward).float64(reward.scalar_reward, 0);
    at(progressDelta).float64(reward.progress_delta, 0);
    if (reward.terminal_reward === null || reward.terminal_reward === undefined) at(terminalReward).missing(0, 0);
    else at(terminalReward).float64(reward.terminal_reward, 0);
    at(isLast).bool(i === last, 0);
    at(returnToGo).float64(rtg, 0);
  };
  return (r, e, o) => {
    const result = new ViewResultBuilder<never>();
    env = e;
    out = o;
    leaves = o.leaves;
    last = r.tuples.length - 1;
    rows = 0;
    eachRlStep(r, e, result, emit);
    if (rows > 0) {
      // The record's own values, the same in each of its rows: written once, then copied into the others.
      const columns = o.columns;
      for (let k = 0; k < perRecord.length; k++) from[k] = (columns[perRecord[k] as number] as ColumnBuffer).valueBytes;
      at(runId).text(r.run_id, 0);
      at(seatIndex).int64(r.seat.seat_index, 0);
      at(role).text(e.label(r.seat.role).text, 0);
      text(at(agentKeyId), r.seat.agent_key_id);
      at(campaignId).text(r.scenario.campaign_id, 0);
      for (let k = 0; k < perRecord.length; k++) (columns[perRecord[k] as number] as ColumnBuffer).repeatLast(rows - 1, from[k] as number);
    }
    return result.written(rows);
  };
}

/**
 * A top-level nullable JSON value as its JSON text: a parsed value (the slow path's record) is
 * stringified; the fast walk's skeleton holds the value's bytes instead, written as they are when they are
 * already `JSON.stringify`'s text (`env.jsonForm` or `isStringifyForm` says), else parsed and stringified: the
 * column's bytes are the same either way.
 */
function jsonText(w: LeafWriter, value: RlStepsTuple["state"]["observation"], env: ViewEnv): void {
  if (value === null || value === undefined) w.missing(0, 0);
  else if (!(value instanceof Utf8Range)) w.text(JSON.stringify(value), 0);
  // A walk's range: its line was checked as UTF-8 before the walk, and a JSON value's text is whole characters.
  else if (env.jsonForm?.(value) ?? isStringifyForm(value.bytes, value.start, value.end, true)) w.bytes(value.bytes, value.start, value.end, 0);
  else w.text(JSON.stringify(JSON.parse(value.text())), 0);
}

/** A top-level nullable string. */
function text(w: LeafWriter, value: string | null | undefined): void {
  if (value === null || value === undefined) w.missing(0, 0);
  else w.text(value, 0);
}
