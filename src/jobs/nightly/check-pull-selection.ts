import type { FormatName } from "../../formats/format.js";
import type { SelectionPlan } from "../../stages/select-plan.js";
import { checkSeatRules } from "../../stages/select.js";

/**
 * A pull's selection, judged before anything is fetched, so a usage error is not found only after the whole
 * night's pull. A pull scores RL and DPO rows from the scorecards it fetches (pull/pulled-book.ts), so what is
 * left to judge is what no score answers: a seat rule on DPO pairs.
 */
export function checkPullSelection(format: FormatName, selection: SelectionPlan): void {
  checkSeatRules(selection, format);
}
