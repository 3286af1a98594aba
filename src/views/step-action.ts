import type { RlTuple } from "../formats/rl.js";
import type { Checked } from "./sanitize-text.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";

/** Whether the step is a decision: an action step that took an action; else it is counted as `no_action`. */
export function isDecision(tuple: RlTuple, result: ViewResultBuilder<unknown>): tuple is RlTuple & { readonly action: NonNullable<RlTuple["action"]> } {
  if (tuple.kind === "action" && tuple.action !== null) return true;
  result.drop("no_action");
  return false;
}

/**
 * A step's action as the step and episode views train on it, checked by the view's text policy; or null once the
 * reason it gives none is counted: no decision (`no_action`), a null content (a roll or a choice,
 * `null_content`), or nothing left after the check (`empty_content`).
 */
export function stepAction(tuple: RlTuple, env: ViewEnv, result: ViewResultBuilder<unknown>): Checked | null {
  if (!isDecision(tuple, result)) return null;
  const action = tuple.action.content === null ? null : env.check(tuple.action.content);
  if (action !== null && action.text.trim().length !== 0) return action;
  result.drop(action === null ? "null_content" : "empty_content");
  return null;
}
