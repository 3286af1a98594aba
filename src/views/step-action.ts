import type { RlTuple } from "../formats/rl.js";
import type { Checked } from "./sanitize-text.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";

/**
 * A step's action as the step and episode views train on it, checked by the view's text policy; or null once the
 * reason it gives none is counted: no action (`no_action`), a null content (a roll or a choice, `null_content`),
 * or nothing left after the check (`empty_content`).
 */
export function stepAction(tuple: RlTuple, env: ViewEnv, result: ViewResultBuilder<unknown>): Checked | null {
  if (tuple.kind !== "action" || tuple.action === null) return dropped(result, "no_action");
  if (tuple.action.content === null) return dropped(result, "null_content");
  const action = env.check(tuple.action.content);
  return action.text.trim().length === 0 ? dropped(result, "empty_content") : action;
}

function dropped(result: ViewResultBuilder<unknown>, reason: "no_action" | "null_content" | "empty_content"): null {
  result.drop(reason);
  return null;
}
