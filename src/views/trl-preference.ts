import { MESSAGES } from "./chat-message.js";
import type { ChatMessage } from "./chat-message.js";
import { usablePairs } from "./usable-pairs.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import { ViewResultBuilder } from "./view-result.js";

/** A row of `trl-preference`: TRL's conversational preference type with an explicit prompt. */
export type TrlPreferenceRow = {
  prompt: ChatMessage[];
  chosen: ChatMessage[];
  rejected: ChatMessage[];
  run_chosen: string;
  run_rejected: string;
  seat_index: number;
  step_index: number;
  campaign_id: string;
};

/** One row per usable DPO pair: the aligned RL step's window as prompt, the two actions as chosen and rejected. */
export const trlPreference: View<"dpo", TrlPreferenceRow> = {
  name: "trl-preference",
  ...traitsOf("trl-preference"),
  unit: "pair",
  columns: [
    { name: "prompt", type: MESSAGES, nullable: false },
    { name: "chosen", type: MESSAGES, nullable: false },
    { name: "rejected", type: MESSAGES, nullable: false },
    { name: "run_chosen", type: { kind: "string" }, nullable: false },
    { name: "run_rejected", type: { kind: "string" }, nullable: false },
    { name: "seat_index", type: { kind: "int64" }, nullable: false },
    { name: "step_index", type: { kind: "int64" }, nullable: false },
    { name: "campaign_id", type: { kind: "string" }, nullable: false },
  ],
  trl: { type: "preference", trainer: "DPOTrainer" },
  description: "Each usable DPO pair as a conversational preference example, its prompt joined from the chosen run's RL step.",
  training: (row) => ({ prompt: row.prompt, completions: [row.chosen, row.rejected] }),
  rows(record, env) {
    const result = new ViewResultBuilder<TrlPreferenceRow>();
    const paths = { prompt: "prompt[].content", chosen: "chosen[].content", rejected: "rejected[].content" };
    for (const p of usablePairs(trlPreference.name, record, env, result, paths)) {
      result.rows.push({
        prompt: p.prompt,
        chosen: p.chosen,
        rejected: p.rejected,
        run_chosen: record.run_chosen,
        run_rejected: record.run_rejected,
        seat_index: record.seat_index,
        step_index: p.pair.index,
        campaign_id: record.scenario.campaign_id,
      });
    }
    return result.result();
  },
};
