import { FORMATS } from "../../../../../src/formats/index.js";
import type { FormatName } from "../../../../../src/formats/format.js";
import { allUntrusted, subject } from "./differential.js";
import type { Subject } from "./differential.js";

/**
 * Overrides that exercise strip's corners, per format: maps whose values are all dropped, structs a drop
 * empties (deleted by strip, and missing from the plan or not), rules ending in `[]` (no-ops), redacted
 * enums and JSON values, whole subtrees dropped.
 */
export const EXOTIC_POLICIES: Readonly<Record<FormatName, readonly Readonly<Record<string, string>>[]>> = {
  sft: [
    { "scores.per_trait.*": "drop" },
    { "scores.per_trait.*.evidence": "drop", "coaching.weak_traits": "drop" },
    { "manifest.judge.model": "drop", "manifest.judge.prompt_hash": "drop", "seat.agent_key_id": "drop" },
    { reconstruction: "redact", "seat.role": "redact", "scores.per_trait.*.evidence[]": "redact", "trace_steps[]": "drop", "coaching.guidance": "keep" },
    { "scores.win_conditions[].met": "drop", "scores.win_conditions[].id": "drop", transcript: "redact" },
    { scenario: "drop", "scores.outcomes": "drop", trace_steps: "drop", "scores.per_trait.*.mean": "drop" },
  ],
  rl: [
    { "tuples[].state.transcript_window": "drop", "tuples[].state.observation": "drop" },
    { "tuples[].reward.conditions_met": "drop", "tuples[].kind": "redact", "tuples[].action.content": "redact", "outcome.dm_messages": "redact" },
    { "outcome.dm_messages": "keep", "scenario.win_conditions": "drop", "tuples[].state.observation": "redact" },
    { "tuples[].state.transcript_window[].content": "redact", "tuples[].state.transcript_window[].role": "drop", "scenario.win_conditions[].id": "drop" },
  ],
  dpo: [
    { "pairs[].chosen.content": "drop", "pairs[].chosen.action_type": "drop", "outcome.dm_messages": "redact" },
    { "scoring_basis.composite_delta": "drop", "scoring_basis.objective_delta": "drop", "scenario.win_conditions[].description": "keep" },
    { pairs: "drop", "scenario.win_conditions[].description": "redact", "pairs[].alignment": "redact" },
  ],
};

/** The format under its default policy, everything kept, everything redacted, and each exotic policy; the default first. */
export function subjectsOf(name: FormatName): Subject[] {
  const f = FORMATS[name];
  return [subject(f), subject(f, allUntrusted(f, "keep"), "keep"), subject(f, allUntrusted(f, "redact"), "redact"), ...EXOTIC_POLICIES[name].map((o, i) => subject(f, o, `exotic ${i}`))];
}
