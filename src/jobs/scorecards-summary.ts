import type { QuarantinedScorecard, ScorecardWarning, Scorecards } from "../stages/read-scorecards.js";
import type { RunPlan } from "../plan/run-plan.js";
import { filterWarnings } from "../stages/filter.js";

/** The manifest's account of the scorecards a run read: how many gate, how many score, and which were faulty. */
export interface ScorecardsSummary {
  readonly path: string;
  /** Cards that pass spec 2.7: their scores are read. */
  readonly cards: number;
  /** Cards read for gating (every card that names a run, faulty elsewhere or not). */
  readonly gating_cards: number;
  /** Runs with at least one gated card (gating itself is per seat unless `--gate-by run`). */
  readonly gated_runs: number;
  /** Cards stamped gated (`true` or an object). */
  readonly gated_seats: number;
  /** Cards whose stamp or `agent_key_id` cannot be read: their seats are dropped as `unreadable_gating`. */
  readonly unreadable_cards: number;
  /** Cards that name no run: never read. */
  readonly quarantined: readonly QuarantinedScorecard[];
  /** Cards read with a fault (see ScorecardWarning), the first few. */
  readonly warnings: readonly ScorecardWarning[];
}

/** How many quarantined cards and warnings the manifest lists one by one (the counts are always whole). */
const LISTED = 20;

export function scorecardsSummary(plan: RunPlan, scorecards: Scorecards | undefined): (ScorecardsSummary & { readonly quarantined_count: number; readonly warnings_count: number }) | null {
  if (plan.source.kind !== "files" || plan.source.scorecards === undefined || scorecards === undefined) return null;
  const { book, gates, quarantined, warnings } = scorecards;
  return {
    path: plan.source.scorecards,
    cards: book.size,
    gating_cards: gates.entries.length,
    gated_runs: gates.runsWith("gated").size,
    gated_seats: gates.count("gated"),
    unreadable_cards: gates.count("unreadable"),
    quarantined_count: quarantined.length,
    quarantined: quarantined.slice(0, LISTED),
    warnings_count: warnings.length,
    warnings: warnings.slice(0, LISTED),
  };
}

/**
 * What a run warns about (manifest, stderr, `validate`): gating on without scorecards, scorecards that were
 * quarantined, cards whose gating cannot be read, and cards read for gating but not for scores.
 */
export function selectionWarnings(plan: RunPlan, scorecards: Scorecards | undefined): string[] {
  const warnings = filterWarnings(plan.filters, scorecards);
  const bad = scorecards?.quarantined ?? [];
  if (bad.length > 0) {
    const first = bad[0] as QuarantinedScorecard;
    warnings.push(`scorecards: ${bad.length} card(s) quarantined as invalid_scorecard and not used for gating or scores (first, ${first.where}: ${first.detail})`);
  }
  for (const reason of ["unreadable_gating", "not_scored"] as const) {
    const faulty = (scorecards?.warnings ?? []).filter((w) => w.reason === reason);
    const first = faulty[0];
    if (first === undefined) continue;
    const effect = reason === "unreadable_gating" ? "their seats are dropped as unreadable_gating" : "read for gating, not for scores";
    warnings.push(`scorecards: ${faulty.length} card(s) ${reason}: ${effect} (first, ${first.where}: ${cardWarningText(first)})`);
  }
  return warnings;
}

/** One faulty card, naming its run, key and field. */
export function cardWarningText(w: ScorecardWarning): string {
  return `run ${w.run_id}, agent_key_id ${w.agent_key_id}, field ${w.field}: ${w.detail}`;
}
