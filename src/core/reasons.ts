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
  /** An `{"error": ...}` line other than `partial_stream`: the service wrote an error where a record belongs. */
  "service_error_line",
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
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** The switchable filter rules, in the order they are applied. */
export const FILTER_RULES = ["flagged", "unscored", "no_trace", "participation_gated"] as const;
export type FilterRule = (typeof FILTER_RULES)[number];
