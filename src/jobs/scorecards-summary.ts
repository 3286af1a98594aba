import type { QuarantinedScorecard, Scorecards } from "../stages/read-scorecards.js";
import type { RunPlan } from "../plan/run-plan.js";
import { filterWarnings } from "../stages/filter.js";

/** The manifest's account of the scorecards a run read: how many were valid, gated, and which were quarantined. */
export interface ScorecardsSummary {
  readonly path: string;
  /** Valid cards read. */
  readonly cards: number;
  /** Runs with at least one gated card (gating itself is per seat). */
  readonly gated_runs: number;
  /** Cards stamped `participation_gated: true`. */
  readonly gated_seats: number;
  /** Cards that failed spec 2.7's schema: never read. */
  readonly quarantined: readonly QuarantinedScorecard[];
}

/** How many quarantined cards the manifest lists one by one (the count is always whole). */
const LISTED = 20;

export function scorecardsSummary(plan: RunPlan, scorecards: Scorecards | undefined): (ScorecardsSummary & { readonly quarantined_count: number }) | null {
  if (plan.source.kind !== "files" || plan.source.scorecards === undefined || scorecards === undefined) return null;
  const { book, quarantined } = scorecards;
  return {
    path: plan.source.scorecards,
    cards: book.size,
    gated_runs: book.gatedRuns().size,
    gated_seats: book.entries.filter((e) => e[5]).length,
    quarantined_count: quarantined.length,
    quarantined: quarantined.slice(0, LISTED),
  };
}

/**
 * What a run warns about (manifest, stderr, `validate`): gating on without scorecards, and scorecards that
 * were quarantined.
 */
export function selectionWarnings(plan: RunPlan, scorecards: Scorecards | undefined): string[] {
  const warnings = filterWarnings(plan.filters, scorecards);
  const bad = scorecards?.quarantined ?? [];
  if (bad.length > 0) {
    const first = bad[0] as QuarantinedScorecard;
    warnings.push(`scorecards: ${bad.length} card(s) quarantined as invalid_scorecard and not used for gating or scores (first, ${first.where}: ${first.detail})`);
  }
  return warnings;
}

