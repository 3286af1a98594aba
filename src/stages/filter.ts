import { decide } from "../flow.js";
import type { Decision } from "../flow.js";
import { FILTER_RULES } from "../reasons.js";
import type { FilterRule } from "../reasons.js";
import type { ValidRecord } from "../valid-record.js";

export interface FilterOptions {
  /** Rules to apply; every rule is on unless set to false. */
  readonly rules?: Partial<Record<FilterRule, boolean>>;
  /** Runs any of whose scorecards carries a truthy `participation_gated` stamp. */
  readonly gatedRuns?: ReadonlySet<string>;
}

const tests: Record<FilterRule, (r: ValidRecord, gated: ReadonlySet<string>) => boolean> = {
  flagged: (r) => r.facts.flagged,
  unscored: (r) => r.facts.scored === false,
  // Only a per-seat trace has steps to learn from.
  no_trace: (r) => r.facts.reconstruction !== null && r.facts.reconstruction !== "per_seat_trace",
  participation_gated: (r, gated) => r.facts.runIds.some((id) => gated.has(id)),
};

/** Drops flagged, unscored, trace-less and participation-gated records, each rule switchable. */
export function filter(options: FilterOptions = {}) {
  const active = FILTER_RULES.filter((rule) => options.rules?.[rule] !== false);
  const gated = options.gatedRuns ?? new Set<string>();
  return decide<ValidRecord>((value): Decision => active.find((rule) => tests[rule](value, gated)) ?? "keep");
}
