import type { FormatName } from "../../../formats/format.js";

/** What `seatRecordFacts` (formats/record-rules.ts) and `scoringFault` read. */
const SEAT_RECORD_READS = ["run_id", "scenario.campaign_id", "seat.seat_index", "seat.role", "seat.agent_key_id", "scorecard_version", "flagged", "scored", "reconstruction"];

/**
 * The paths (field-path syntax) each format's `facts`, `check` and `prune` (formats/*-rules.ts) read: the
 * parallel engine's fast parser builds only these into each record's skeleton. The fast path's business,
 * kept apart from the rules; the skeleton property tests fail when one is missing.
 */
export const RECORD_READS: Readonly<Record<FormatName, readonly string[]>> = {
  sft: [...SEAT_RECORD_READS, "scores.outcomes.met_count", "scores.outcomes.total_checks", "scores.outcomes.total_actions"],
  // `action.action_type` only: the rule asks whether the action is null, and its content may be long.
  rl: [...SEAT_RECORD_READS, "tuples[].index", "tuples[].kind", "tuples[].action.action_type", "tuples[].reward.checks_passed", "tuples[].reward.checks_failed", "tuples[].reward.terminal_reward"],
  dpo: ["run_chosen", "run_rejected", "scenario.campaign_id", "seat_index", "flagged", "scoring_basis.composite_delta", "scoring_basis.objective_delta", "pairs[].alignment", "pairs[].chosen.content", "pairs[].rejected.content"],
};

/**
 * What `ownScoreOf` (formats/seat-score.ts) reads of an SFT record, added to the skeleton only when a score
 * threshold is asked: the per-trait map is the costliest part of a record to build.
 */
export const OWN_SCORE_READS: Readonly<Record<FormatName, readonly string[]>> = {
  sft: ["scores.per_trait.*.mean", "scores.outcomes.met_count", "scores.outcomes.total_checks"],
  rl: [],
  dpo: [],
};
