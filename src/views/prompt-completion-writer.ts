import type { RlRecord } from "../formats/rl.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import type { LeafWriter } from "../parquet/leaf-writer.js";
import { actionSteps } from "./action-steps.js";
import { LeafColumns } from "./leaf-columns.js";
import type { RowOut } from "./leaf-columns.js";
import type { Turn } from "./turn.js";
import type { ViewEnv } from "./view-env.js";
import { ViewResultBuilder } from "./view-result.js";
import type { ViewWritten } from "./view-result.js";

/**
 * `trl-prompt-completion`'s rows, written straight into the leaves of `plan` (its columns): the view's one
 * implementation of its rows (`trlPromptCompletion.rows` reads them back), without a row object and the
 * generic shredding of it.
 */
export function promptCompletionWriter(plan: ColumnPlan): (record: RlRecord, env: ViewEnv, out: RowOut) => ViewWritten {
  const c = new LeafColumns(plan);
  const prompt = c.messages("prompt");
  const completion = c.messages("completion");
  const runId = c.leaf("run_id");
  const seatIndex = c.leaf("seat_index");
  const stepIndex = c.leaf("step_index");
  const campaignId = c.leaf("campaign_id");
  return (record, env, out) => {
    const result = new ViewResultBuilder<never>();
    const steps = actionSteps(record, env, result, { prompt: "prompt[].content", completion: "completion[].content" });
    const leaves = out.leaves;
    for (const step of steps) {
      out.beginRow();
      const turns = step.prompt.turns;
      // A prompt always holds a user turn (else the step gave no row).
      for (let t = 0; t < turns.length; t++) {
        const turn = turns[t] as Turn;
        prompt.message(leaves, t, turn.role, turn.content);
      }
      completion.message(leaves, 0, step.completion.role, step.completion.content);
      (leaves[runId] as LeafWriter).text(record.run_id, 0);
      (leaves[seatIndex] as LeafWriter).int64(record.seat.seat_index, 0);
      (leaves[stepIndex] as LeafWriter).int64(step.tuple.index, 0);
      (leaves[campaignId] as LeafWriter).text(record.scenario.campaign_id, 0);
    }
    return result.written(steps.length);
  };
}
