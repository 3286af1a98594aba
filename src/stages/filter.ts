import { decide } from "../core/flow.js";
import type { RecordFacts } from "../formats/format.js";
import type { Decision } from "../core/flow.js";
import { FILTER_RULES } from "../core/reasons.js";
import type { FilterRule } from "../core/reasons.js";
import type { ValidRecord } from "../formats/valid-record.js";

export interface FilterOptions {
  /** Rules to apply; every rule is on unless set to false. */
  readonly rules?: Partial<Record<FilterRule, boolean>>;
  /** Runs any of whose scorecards carries a truthy `participation_gated` stamp. */
  readonly gatedRuns?: ReadonlySet<string>;
}

const tests: Record<FilterRule, (f: RecordFacts, gated: ReadonlySet<string>) => boolean> = {
  flagged: (f) => f.flagged,
  unscored: (f) => f.scored === false,
  // Only a per-seat trace has steps to learn from.
  no_trace: (f) => f.reconstruction !== null && f.reconstruction !== "per_seat_trace",
  no_pairs: (f) => f.usablePairs === 0,
  participation_gated: (f, gated) => f.runIds.some((id) => gated.has(id)),
};

/** Every rule with whether it applies: on unless set to false. This is what manifests record. */
export function filterSettings(rules: Partial<Record<FilterRule, boolean>> = {}): Record<FilterRule, boolean> {
  return Object.fromEntries(FILTER_RULES.map((rule) => [rule, rules[rule] !== false])) as Record<FilterRule, boolean>;
}

/** What a manifest should warn about: a gating rule that is on without any scorecards to apply it. */
export function filterWarnings(rules: Partial<Record<FilterRule, boolean>>, gatedRuns: ReadonlySet<string> | undefined): string[] {
  return filterSettings(rules).participation_gated && gatedRuns === undefined
    ? ["participation_gated: no scorecards were given, so no record could be recognised as gated"]
    : [];
}

/** Drops flagged, unscored, trace-less, pair-less (DPO) and participation-gated records, each rule switchable. */
export function filter(options: FilterOptions = {}) {
  const rule = filterRule(options);
  return decide<ValidRecord>((value): Decision => rule(value.facts));
}

/** The filter stage's rule on a record's facts alone: the first rule that drops it, or "keep". */
export function filterRule(options: FilterOptions = {}): (facts: RecordFacts) => Decision {
  const settings = filterSettings(options.rules);
  const active = FILTER_RULES.filter((rule) => settings[rule]);
  const gated = options.gatedRuns ?? new Set<string>();
  return (facts) => active.find((rule) => tests[rule](facts, gated)) ?? "keep";
}
