import type { ViewName } from "../../../views/view.js";

/** What every RL step view reads of a record (src/views/action-steps.ts, return-to-go.ts and the rows). */
const STEP_VIEW_READS = [
  "run_id",
  "seat.seat_index",
  "seat.role",
  "scenario.campaign_id",
  "tuples[].index",
  "tuples[].kind",
  "tuples[].state.transcript_window[].role",
  "tuples[].state.transcript_window[].content",
  "tuples[].action.action_type",
  "tuples[].action.content",
  "tuples[].reward.checks_passed",
  "tuples[].reward.checks_failed",
  "tuples[].reward.conditions_met[]",
  "tuples[].reward.scalar_reward",
  "tuples[].reward.progress_delta",
  "tuples[].reward.terminal_reward",
];

/**
 * The paths (field-path syntax) each view the parallel engine runs reads of a record: its fast parser builds
 * them into the skeleton, which the view then reads instead of the record JSON.parse and zod would give (a
 * string in a list, or a JSON-typed value, is in a skeleton only when named; a JSON-typed value is there as
 * its text's bytes, which only `rl-steps`' writer reads). The fast path's business;
 * test/engines/executors-agree.test.ts fails when a path the view reads is missing. The DPO views, which need
 * context, do not run there.
 */
export const VIEW_READS: Readonly<Partial<Record<ViewName, readonly string[]>>> = {
  "trl-prompt-completion": STEP_VIEW_READS,
  "trl-kto": STEP_VIEW_READS,
  "openai-sft": STEP_VIEW_READS,
  "trl-stepwise": STEP_VIEW_READS,
  "trl-prompt-only": STEP_VIEW_READS,
  "trl-messages": STEP_VIEW_READS,
  "rl-steps": [...STEP_VIEW_READS, "seat.agent_key_id", "tuples[].state.observation"],
};

/**
 * The strings of `VIEW_READS` a view takes as their UTF-8 bytes (a `Utf8Range` in the walk's skeleton; the
 * slow path's record holds strings): `rl-steps` writes a window text's bytes as they are when a byte check
 * clears them (src/views/each-rl-step.ts), its action content too. Per view: the others read the same paths as strings.
 */
export const VIEW_BYTE_READS: Readonly<Partial<Record<ViewName, readonly string[]>>> = {
  "rl-steps": ["tuples[].state.transcript_window[].content", "tuples[].action.content"],
};
