/** The reasons of the semantic rules (src/formats/*-rules.ts; docs/rules.md): each its own, so a manifest says which broke. */
export const SEMANTIC_REASONS = [
  "invalid_trajectory",
  "invalid_pair",
  "scored_without_scores",
  "scored_without_scorecard",
  "count_out_of_range",
  "action_step_without_action",
  "dpo_tie",
  "dpo_inverted",
] as const;
export type SemanticReason = (typeof SEMANTIC_REASONS)[number];

/** Why a line was quarantined: it did not fit, and a person should look at it. */
export const QUARANTINE_REASONS = [
  "invalid_json",
  "line_too_long",
  "unsupported_format_version",
  "mixed_format",
  "schema",
  /** The bytes of the line are not UTF-8 (spec: JSON text; decoding would silently put U+FFFD in their place). */
  "invalid_utf8",
  ...SEMANTIC_REASONS,
  /** A training view's row matched a prompt-injection pattern and `--on-injection quarantine` was asked. */
  "injection",
  /** An `{"error": ...}` line other than `partial_stream`: the service wrote an error where a record belongs. */
  "service_error_line",
] as const;
export type QuarantineReason = (typeof QUARANTINE_REASONS)[number];

/** Why a valid record was left out of the dataset on purpose. */
export const DROP_REASONS = [
  "duplicate",
  /**
   * Same key and scorecard version as the record kept, other bytes: the service sent two different records
   * under one identity. The first copy in input order is kept (docs/rules.md); counted apart so it shows.
   */
  "conflicting_duplicate",
  "superseded",
  "flagged",
  "unscored",
  "no_trace",
  /** A DPO record with no pair that teaches a preference (`pairs: []`, or every pair pruned): nothing to learn. */
  "no_pairs",
  "participation_gated",
  /**
   * The seat's scorecard has a `participation_gated` stamp that is neither absent, null, false, true nor an
   * object, or no readable `agent_key_id` (src/formats/card-gate.ts): its gating is unknown, so it is not kept.
   */
  "unreadable_gating",
  /**
   * A record of a run (a DPO pair: of either run) whose scenario a released benchmark suite pins by its
   * `scenario_version_hash` (spec 2.10; src/formats/suite-book.ts): never trained on.
   */
  "benchmark_scenario",
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
export const FILTER_RULES = ["flagged", "unscored", "no_trace", "no_pairs", "participation_gated"] as const;
export type FilterRule = (typeof FILTER_RULES)[number];

/** Why a pair was left out of a DPO record that is kept (counted in the manifest's `dropped_pairs`). */
export const PAIR_DROP_REASONS = ["unknown_alignment", "null_content", "chosen_equals_rejected"] as const;
export type PairDropReason = (typeof PAIR_DROP_REASONS)[number];
