import { decide } from "../core/flow.js";
import type { RecordFacts } from "../formats/format.js";
import type { Decision } from "../core/flow.js";
import { FILTER_RULES } from "../core/reasons.js";
import type { FilterRule } from "../core/reasons.js";
import type { ValidRecord } from "../formats/valid-record.js";
import type { ScoreBook } from "../formats/scorecard-book.js";

export interface FilterOptions {
  /** Rules to apply; every rule is on unless set to false. */
  readonly rules?: Partial<Record<FilterRule, boolean>>;
  /** Runs to gate as a whole (a pull's scorecards), when no `scores` are given. */
  readonly gatedRuns?: ReadonlySet<string>;
  /** Valid scorecards: gating is then per seat, by the stamp on the seat's own card (spec 2.7). */
  readonly scores?: ScoreBook;
}

type Gated = (f: RecordFacts) => boolean;

const tests: Record<FilterRule, (f: RecordFacts, gated: Gated) => boolean> = {
  flagged: (f) => f.flagged,
  unscored: (f) => f.scored === false,
  // Only a per-seat trace has steps to learn from.
  no_trace: (f) => f.reconstruction !== null && f.reconstruction !== "per_seat_trace",
  no_pairs: (f) => f.usablePairs === 0,
  participation_gated: (f, gated) => gated(f),
};

/**
 * Whether a record is gated. With scorecards: a seat record by its own seat's card of its version (a stamp
 * on another seat's card leaves it be); a DPO pair, which names no seat's key, when either run's current
 * agent cards carry the stamp. Without: by the run-level set.
 */
function gatedBy(options: FilterOptions): Gated {
  const { scores } = options;
  if (scores !== undefined) {
    return (f) =>
      f.seat === null
        ? f.runIds.some((id) => scores.run(id)?.gated === true)
        : scores.seat({ runId: f.runIds[0] as string, agentKeyId: f.seat.agentKeyId, version: f.scorecardVersion })?.gated === true;
  }
  const runs = options.gatedRuns ?? new Set<string>();
  return (f) => f.runIds.some((id) => runs.has(id));
}

/** Every rule with whether it applies: on unless set to false. This is what manifests record. */
export function filterSettings(rules: Partial<Record<FilterRule, boolean>> = {}): Record<FilterRule, boolean> {
  return Object.fromEntries(FILTER_RULES.map((rule) => [rule, rules[rule] !== false])) as Record<FilterRule, boolean>;
}

/** The warning when the gating rule is on without any scorecards to apply it (stderr, manifest, validate). */
export const NO_SCORECARDS_WARNING = "participation_gated: no scorecards were given, so no record could be recognised as gated (pass --scorecards, or --require-scorecards to make this an error)";

/** What a manifest should warn about: a gating rule that is on without any scorecards to apply it. */
export function filterWarnings(rules: Partial<Record<FilterRule, boolean>>, gatedRuns: unknown): string[] {
  return filterSettings(rules).participation_gated && gatedRuns === undefined ? [NO_SCORECARDS_WARNING] : [];
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
  const gated = gatedBy(options);
  return (facts) => active.find((rule) => tests[rule](facts, gated)) ?? "keep";
}
