import type { SemanticFault } from "./format.js";
import { scoringFault } from "./scoring-fault.js";

/** The part of an SFT 1.1 record its rules read (as paths in `RECORD_RULES`, record-rules.ts). */
export interface SftShape {
  readonly scored: boolean;
  readonly scorecard_version: number;
  readonly scores: { readonly outcomes: { readonly met_count: number; readonly total_checks: number; readonly total_actions: number } } | null;
}

/**
 * SFT 1.1 (spec 4.8, 2.7): a scored record has scores and a scorecard version (versions start at 1, spec 9);
 * outcome counts are counts (never negative) and no more checks are met than there are.
 */
export function checkSftRecord(r: SftShape): SemanticFault | null {
  const scoring = scoringFault(r.scored, r.scorecard_version);
  if (scoring !== null) return scoring;
  if (r.scored && r.scores === null) return { reason: "scored_without_scores", detail: "scored is true but scores is null" };
  const outcomes = r.scores?.outcomes;
  if (outcomes === undefined) return null;
  // Each count by its own name, not a lookup over a list of names: docs/decisions.md "hot code shape", keyed loads.
  const { met_count: met, total_checks: checks, total_actions: actions } = outcomes;
  if (met < 0) return { reason: "count_out_of_range", detail: `scores.outcomes.met_count is ${met}, a count below 0` };
  if (checks < 0) return { reason: "count_out_of_range", detail: `scores.outcomes.total_checks is ${checks}, a count below 0` };
  if (actions < 0) return { reason: "count_out_of_range", detail: `scores.outcomes.total_actions is ${actions}, a count below 0` };
  if (met > checks) return { reason: "count_out_of_range", detail: `scores.outcomes.met_count ${met} is over total_checks ${checks}` };
  return null;
}
