import type { RecordFacts } from "../formats/format.js";
import type { SeatScore } from "../formats/seat-score.js";
import { isRecord } from "../core/is-record.js";

/** What the dataset's statistics read of one kept record (a view's rows share their record's). */
export interface StatsRow {
  /** `scenario.campaign_id`: opaque data, counted as it is. */
  readonly scenario: string;
  /** The row's split ("train" when the plan does not split). */
  readonly split: string;
  /** Its seat's composite and objective rate; null when the record has no score (unscored, no scorecard). */
  readonly score: SeatScore | null;
  /**
   * The record's own `scores.per_trait` (SFT: name -> `{mean}`), as it is: DatasetStats reads each mean, so no
   * copy is made per record; null where the record carries none (RL, DPO, unscored).
   */
  readonly traits: object | null;
}

/**
 * The one function every kept record's stats go through: `read` is the record (the slow path's) or the
 * walk's skeleton; `score` is what selection reads (`scoreOf`: SFT's own, RL and DPO from `--scorecards`).
 * A plain SFT unit of the parallel engine reads its rows' scores and trait means back from the row group
 * instead (engines/parallel/run/shredded-scores.ts: the skeleton does not build them).
 */
export function statsRowOf(facts: RecordFacts, read: Readonly<Record<string, unknown>>, score: SeatScore | null | undefined, split: string | undefined): StatsRow {
  const scores = read.scores;
  const perTrait = isRecord(scores) ? scores.per_trait : undefined;
  return { scenario: facts.campaignId, split: split ?? "train", score: score ?? null, traits: perTrait !== null && typeof perTrait === "object" ? perTrait : null };
}
