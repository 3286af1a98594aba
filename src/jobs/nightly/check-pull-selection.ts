import { ConfigError } from "../../core/errors.js";
import type { FormatName } from "../../formats/format.js";
import type { SelectionPlan } from "../../stages/select-plan.js";
import { checkSelection, scoreFlagsAsked } from "../../stages/select.js";

/**
 * A pull's selection, judged before anything is fetched: the engine would find the same usage error only
 * after the whole night's pull, and its advice (`--scorecards`) is not a flag of a pull. RL and DPO records
 * carry no scores, and a pull's scorecards gate seats without scoring them (docs/selection.md).
 */
export function checkPullSelection(format: FormatName, selection: SelectionPlan): void {
  const asked = scoreFlagsAsked(selection);
  if (format !== "sft" && asked.length > 0) {
    throw new ConfigError(
      `${asked.join(", ")} on a pull of ${format.toUpperCase()} records: not supported yet (its records carry no scores, and a pull's scorecards only gate seats); SFT pulls take it, and convert takes it on ${format.toUpperCase()} exports with --scorecards`,
    );
  }
  checkSelection(selection, { format });
}
