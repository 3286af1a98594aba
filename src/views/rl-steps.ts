import type { RlTuple } from "../formats/rl.js";
import type { Field } from "../schema/column-type.js";
import { MESSAGES } from "./chat-message.js";
import type { RlStepsRecord } from "./rl-steps-record.js";
import { rlStepsWriter } from "./rl-steps-writer.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import { writtenRows } from "./written-rows.js";

/** A row of `rl-steps`: one RL tuple, flat, with its return to go. */
export type RlStepsRow = {
  run_id: string;
  seat_index: number;
  role: string;
  agent_key_id: string | null;
  campaign_id: string;
  step_index: number;
  kind: string;
  observation: RlTuple["state"]["observation"];
  transcript_window: { role: string; content: string }[];
  action_type: string | null;
  action_content: string | null;
  checks_passed: number;
  checks_failed: number;
  conditions_met: string[];
  scalar_reward: number;
  progress_delta: number;
  terminal_reward: number | null;
  is_last: boolean;
  return_to_go: number;
};

const column = (name: string, kind: "string" | "int64" | "float64" | "bool" | "json", nullable = false): Field => ({ name, type: { kind }, nullable });

const RL_STEPS_COLUMNS: readonly Field[] = [
  column("run_id", "string"),
  column("seat_index", "int64"),
  column("role", "string"),
  column("agent_key_id", "string", true),
  column("campaign_id", "string"),
  column("step_index", "int64"),
  column("kind", "string"),
  column("observation", "json", true),
  { name: "transcript_window", type: MESSAGES, nullable: false },
  column("action_type", "string", true),
  column("action_content", "string", true),
  column("checks_passed", "int64"),
  column("checks_failed", "int64"),
  { name: "conditions_met", type: { kind: "list", item: { kind: "string" } }, nullable: false },
  column("scalar_reward", "float64"),
  column("progress_delta", "float64"),
  column("terminal_reward", "float64", true),
  column("is_last", "bool"),
  column("return_to_go", "float64"),
];

/**
 * One row per RL tuple, every kind, flat for offline RL and analysis. The window keeps the service's roles
 * (`dm`, `player`); texts and labels (roles, action types, conditions met) are sanitized and audited;
 * `return_to_go` sums the step's and every later step's `scalar_reward + terminal_reward`, discounted by
 * `gamma` (1 by default).
 */
export const rlSteps: View<"rl", RlStepsRow, RlStepsRecord> = {
  name: "rl-steps",
  ...traitsOf("rl-steps"),
  unit: "step",
  columns: RL_STEPS_COLUMNS,
  trl: null,
  description: "Each RL step as a flat row with its reward and return to go, for offline RL and analysis.",
  rows: writtenRows(RL_STEPS_COLUMNS, rlStepsWriter),
  write: rlStepsWriter,
};
