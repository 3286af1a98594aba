import type { RecordFacts } from "../formats/format.js";
import type { SeatScore } from "../formats/seat-score.js";

/** What the dataset's statistics read of one kept record (a view's rows share their record's). */
export interface StatsRow {
  /** `scenario.campaign_id`: opaque data, counted as it is. */
  readonly scenario: string;
  /** The row's split ("train" when the plan does not split). */
  readonly split: string;
  /** Its seat's composite and objective rate; null when the record has no score (unscored, no scorecard). */
  readonly score: SeatScore | null;
  /** Per-trait means, where the record carries them (SFT's own `scores.per_trait`); empty otherwise. */
  readonly traits: readonly (readonly [string, number])[];
}

/**
 * The one function both engines call on a kept record: `read` is the record (the stages') or the parallel
 * engine's skeleton, which holds `scores.per_trait.*.mean` (OWN_SCORE_READS); `score` is what selection
 * reads (`scoreOf`: SFT's own, RL and DPO from `--scorecards`).
 */
export function statsRowOf(facts: RecordFacts, read: Readonly<Record<string, unknown>>, score: SeatScore | null | undefined, split: string | undefined): StatsRow {
  return { scenario: facts.campaignId, split: split ?? "train", score: score ?? null, traits: traitMeansOf(read) };
}

function traitMeansOf(read: Readonly<Record<string, unknown>>): [string, number][] {
  const scores = read.scores;
  const perTrait = scores !== null && typeof scores === "object" ? (scores as { per_trait?: unknown }).per_trait : undefined;
  if (perTrait === null || typeof perTrait !== "object") return [];
  const means: [string, number][] = [];
  for (const [name, trait] of Object.entries(perTrait)) {
    const mean = trait !== null && typeof trait === "object" ? (trait as { mean?: unknown }).mean : undefined;
    if (typeof mean === "number" && Number.isFinite(mean)) means.push([name, mean]);
  }
  return means;
}
