import type { SemanticFault } from "./format.js";
import { scoringFault } from "./scoring-fault.js";

/** The part of an RL tuple the trajectory rules read. */
export interface TupleShape {
  readonly index: number;
  readonly kind: string;
  /** Only whether it is null is read (the fast path builds just `action_type`). */
  readonly action: object | null;
  readonly reward: { readonly checks_passed: number; readonly checks_failed: number; readonly terminal_reward: number | null };
}

/** The part of an RL 1.0 record its rules read (as paths in `RECORD_RULES`, record-rules.ts). */
export interface RlShape {
  readonly scored: boolean;
  readonly scorecard_version: number;
  readonly tuples: readonly TupleShape[];
}

/**
 * Indexes run 0..n-1 in order, and only the last action step may carry a terminal reward (spec 4.9). Kept
 * apart from the other RL rules: a trajectory fault is `invalid_trajectory`.
 */
export function checkTrajectory(tuples: readonly TupleShape[]): SemanticFault | null {
  let lastAction = -1;
  for (const [i, t] of tuples.entries()) {
    if (t.index !== i) {
      return { reason: "invalid_trajectory", detail: `tuples[${i}].index is ${t.index}, expected ${i}` };
    }
    if (t.kind === "action") lastAction = i;
  }
  for (const [i, t] of tuples.entries()) {
    if (t.reward.terminal_reward !== null && i !== lastAction) {
      return {
        reason: "invalid_trajectory",
        detail: `tuples[${i}].reward.terminal_reward is ${t.reward.terminal_reward} but only the last action step (${lastAction < 0 ? "none" : `tuples[${lastAction}]`}) may carry one`,
      };
    }
  }
  return null;
}

/**
 * RL 1.0 (spec 4.9): scored means a scorecard version; a trajectory as {@link checkTrajectory} says; a step of
 * `kind: "action"` took an action (a `blocked_or_idle` step may have none); check counts are never negative.
 */
export function checkRlRecord(r: RlShape): SemanticFault | null {
  const scoring = scoringFault(r.scored, r.scorecard_version);
  if (scoring !== null) return scoring;
  const trajectory = checkTrajectory(r.tuples);
  if (trajectory !== null) return trajectory;
  for (const [i, t] of r.tuples.entries()) {
    if (t.kind === "action" && t.action === null) return { reason: "action_step_without_action", detail: `tuples[${i}] is of kind "action" but its action is null` };
    // Each count by its own name, not `t.reward[name]` over a list: docs/decisions.md "hot code shape", keyed loads.
    const { checks_passed: passed, checks_failed: failed } = t.reward;
    if (passed < 0) return { reason: "count_out_of_range", detail: `tuples[${i}].reward.checks_passed is ${passed}, a count below 0` };
    if (failed < 0) return { reason: "count_out_of_range", detail: `tuples[${i}].reward.checks_failed is ${failed}, a count below 0` };
  }
  return null;
}
