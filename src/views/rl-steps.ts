import type { RlTuple } from "../formats/rl.js";
import type { Field } from "../schema/column-type.js";
import { MESSAGES } from "./chat-message.js";
import { CLEARED, eachRlStep } from "./each-rl-step.js";
import type { Utf8Range } from "./utf8-range.js";
import { rlStepsWriter } from "./rl-steps-writer.js";
import type { View } from "./view.js";
import { ViewResultBuilder } from "./view-result.js";

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

/**
 * One row per RL tuple, every kind, flat for offline RL and analysis. The window keeps the service's roles
 * (`dm`, `player`); texts and labels (roles, action types, conditions met) are sanitized and audited;
 * `return_to_go` sums the step's and every later step's `scalar_reward + terminal_reward`, discounted by
 * `gamma` (1 by default).
 */
export const rlSteps: View<"rl", RlStepsRow> = {
  name: "rl-steps",
  from: "rl",
  needsContext: false,
  unit: "step",
  columns: [
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
  ],
  outputs: ["parquet", "jsonl"],
  trl: null,
  description: "Each RL step as a flat row with its reward and return to go, for offline RL and analysis.",
  rows(record, env) {
    const result = new ViewResultBuilder<RlStepsRow>();
    const role = env.label(record.seat.role).text;
    eachRlStep(record, env, result, (tuple, i, window, action, returnToGo, labels) => {
      const { reward } = tuple;
      result.rows.push({
        run_id: record.run_id,
        seat_index: record.seat.seat_index,
        role,
        agent_key_id: record.seat.agent_key_id,
        campaign_id: record.scenario.campaign_id,
        step_index: tuple.index,
        kind: tuple.kind,
        observation: tuple.state.observation,
        transcript_window:
          window === CLEARED
            ? tuple.state.transcript_window.map((m) => ({ role: m.role, content: (m.content as unknown as Utf8Range).text() }))
            : window.map((m) => ({ role: m.role, content: m.bytes === null ? m.text : m.bytes.text() })),
        action_type: labels === null ? (tuple.action?.action_type ?? null) : labels.actionType,
        action_content: action === null ? null : action.bytes === null ? action.text : action.bytes.text(),
        checks_passed: reward.checks_passed,
        checks_failed: reward.checks_failed,
        conditions_met: labels === null ? reward.conditions_met : [...labels.conditions],
        scalar_reward: reward.scalar_reward,
        progress_delta: reward.progress_delta,
        terminal_reward: reward.terminal_reward,
        is_last: i === record.tuples.length - 1,
        return_to_go: returnToGo,
      });
    });
    return result.result();
  },
  write: rlStepsWriter,
};
