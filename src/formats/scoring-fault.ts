import type { SemanticFault } from "./format.js";

/**
 * A scored record names the scorecard it was built from: scorecard versions start at 1 (spec 9, `version`
 * min 1), so `scored: true` with `scorecard_version: 0` claims scores no scorecard holds.
 */
export function scoringFault(scored: boolean, scorecardVersion: number): SemanticFault | null {
  return scored && scorecardVersion < 1 ? { reason: "scored_without_scorecard", detail: `scored is true but scorecard_version is ${scorecardVersion} (versions start at 1)` } : null;
}
