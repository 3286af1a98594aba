/** Why a line was quarantined: it did not fit, and a person should look at it. */
export const QUARANTINE_REASONS = [
  "invalid_json",
  "line_too_long",
  "unsupported_format_version",
  "mixed_format",
  "schema",
  "invalid_trajectory",
  "invalid_pair",
  /** A training view's row matched a prompt-injection pattern and `--on-injection quarantine` was asked. */
  "injection",
] as const;
export type QuarantineReason = (typeof QUARANTINE_REASONS)[number];

/** Why a valid record was left out of the dataset on purpose. */
export const DROP_REASONS = [
  "duplicate",
  "superseded",
  "flagged",
  "unscored",
  "no_trace",
  "participation_gated",
  // Selection (src/stages/select.ts), in the order its rules apply.
  /** A seat without an `agent_key_id`: the platform's `aic` adversary (spec 2.4); kept with `--seats all`. */
  "adversary_seat",
  /** Not of an asked `--agent-key`, `--role` or `--campaign`. */
  "not_selected",
  /** A score threshold was asked, and no valid scorecard of the record's seat and version was given. */
  "no_scorecard",
  "below_threshold",
  "not_top_k",
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** The switchable filter rules, in the order they are applied. */
export const FILTER_RULES = ["flagged", "unscored", "no_trace", "participation_gated"] as const;
export type FilterRule = (typeof FILTER_RULES)[number];
