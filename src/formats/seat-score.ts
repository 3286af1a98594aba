import type { Scorecard } from "./scorecard.js";
import { seatTraitsOf, type SeatTraits } from "./trait-table.js";
import { isRecord } from "../core/is-record.js";

/**
 * What selection and gating read of one seat's scores, from a scorecard (RL, DPO) or from an SFT record's
 * own `scores`: the same definitions either way (spec 2.7).
 */
export interface SeatScore {
  /** Mean of the per-trait means; null when no trait has a mean. */
  readonly composite: number | null;
  /** `met_count / total_checks`, 0 when there are no checks. */
  readonly objectiveRate: number;
  /**
   * A scorecard's per-trait means (RL, DPO), which the stats count with the composite; absent for SFT, whose
   * stats read the record's own `scores.per_trait` (StatsRow.traits).
   */
  readonly traits?: SeatTraits;
}

/**
 * Safety traits are not part of the composite (spec 2.7). Scorecards keep them in `safety`; these are the
 * names the spec has seen, left out too should a producer put them among the per-trait scores.
 */
export const SAFETY_TRAITS: ReadonlySet<string> = new Set(["no_unauthorized_disclosure_conduct", "manipulation_resistance"]);

/** A seat's score from its per-trait means and outcomes (any of which may be missing in a skeleton). */
export function seatScoreOf(perTrait: unknown, outcomes: unknown): SeatScore {
  const means: number[] = [];
  if (perTrait !== null && typeof perTrait === "object") {
    for (const [name, trait] of Object.entries(perTrait)) {
      if (SAFETY_TRAITS.has(name)) continue;
      const mean = isRecord(trait) ? trait.mean : undefined;
      if (typeof mean === "number" && Number.isFinite(mean)) means.push(mean);
    }
  }
  const o = outcomes !== null && typeof outcomes === "object" ? (outcomes as { met_count?: unknown; total_checks?: unknown }) : {};
  const met = typeof o.met_count === "number" ? o.met_count : 0;
  const total = typeof o.total_checks === "number" ? o.total_checks : 0;
  return {
    composite: means.length === 0 ? null : means.reduce((s, m) => s + m, 0) / means.length,
    objectiveRate: total === 0 ? 0 : met / total,
  };
}

/** A valid scorecard's seat score with its per-trait means: a pull's cards and a scorecards file's, read alike. */
export function cardSeatScore(card: Scorecard): SeatScore & { readonly traits: SeatTraits } {
  return { ...seatScoreOf(card.traits.per_trait, card.outcomes), traits: seatTraitsOf(card.traits.per_trait) };
}

/**
 * The seat's score a record carries itself: SFT's `scores` (null when unscored); undefined for RL and DPO,
 * whose scores are in scorecards. Reads what the format's `scoreReads` list (record-rules.ts).
 */
export function ownScoreOf(format: string, record: Readonly<Record<string, unknown>>): SeatScore | null | undefined {
  if (format !== "sft") return undefined;
  const scores = record.scores as { per_trait?: unknown; outcomes?: unknown } | null | undefined;
  return scores === null || scores === undefined ? null : seatScoreOf(scores.per_trait, scores.outcomes);
}
