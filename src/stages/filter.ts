import { decide } from "../core/flow.js";
import type { RecordFacts } from "../formats/format.js";
import type { Decision } from "../core/flow.js";
import { FILTER_RULES } from "../core/reasons.js";
import type { DropReason, FilterRule } from "../core/reasons.js";
import type { ValidRecord } from "../formats/valid-record.js";
import { gateReason } from "../formats/card-gate.js";
import type { Gate, GateBy } from "../formats/card-gate.js";
import type { GateBook } from "../formats/gate-book.js";
import type { SuiteBook } from "../formats/suite-book.js";

export interface FilterOptions {
  /** Rules to apply; every rule is on unless set to false. */
  readonly rules?: Partial<Record<FilterRule, boolean>>;
  /** The scorecards' gating (undefined: none given, so no record is gated). */
  readonly gates?: GateBook;
  /** Gate a seat by its own card (default) or a whole run by any of its cards. */
  readonly gateBy?: GateBy;
  /** The released benchmark suites (undefined: decontamination off); checked before every other rule. */
  readonly suites?: SuiteBook;
}

type GateOf = (f: RecordFacts) => Gate;

// Each rule answers the reason it drops a record for, or null.
const tests: Record<FilterRule, (f: RecordFacts, gate: GateOf) => DropReason | null> = {
  flagged: (f) => (f.flagged ? "flagged" : null),
  unscored: (f) => (f.scored === false ? "unscored" : null),
  // Only a per-seat trace has steps to learn from.
  no_trace: (f) => (f.reconstruction !== null && f.reconstruction !== "per_seat_trace" ? "no_trace" : null),
  no_pairs: (f) => (f.usablePairs === 0 ? "no_pairs" : null),
  // One rule for every command (src/formats/gate-book.ts); an unreadable stamp drops too.
  participation_gated: (f, gate) => gateReason(gate(f)),
};

/** Every rule with whether it applies: on unless set to false. This is what manifests record. */
export function filterSettings(rules: Partial<Record<FilterRule, boolean>> = {}): Record<FilterRule, boolean> {
  return Object.fromEntries(FILTER_RULES.map((rule) => [rule, rules[rule] !== false])) as Record<FilterRule, boolean>;
}

/** The warning when the gating rule is on without any scorecards to apply it (stderr, manifest, validate). */
export const NO_SCORECARDS_WARNING = "participation_gated: no scorecards were given, so no record could be recognised as gated (pass --scorecards, or --require-scorecards to make this an error)";

/** What a manifest should warn about: a gating rule that is on without any scorecards to apply it. */
export function filterWarnings(rules: Partial<Record<FilterRule, boolean>>, gates: unknown): string[] {
  return filterSettings(rules).participation_gated && gates === undefined ? [NO_SCORECARDS_WARNING] : [];
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
  const { gates } = options;
  const by = options.gateBy ?? "seat";
  const gate: GateOf = gates === undefined ? () => "open" : (f) => gates.record(f, by);
  const { suites } = options;
  return (facts) => {
    // A benchmark scenario's record is never trained on, whatever else holds (src/formats/suite-book.ts).
    if (suites !== undefined && suites.decide(facts) !== null) return "benchmark_scenario";
    for (const rule of active) {
      const reason = tests[rule](facts, gate);
      if (reason !== null) return reason;
    }
    return "keep";
  };
}
