import type { DpoRecord } from "../formats/dpo.js";
import { round4 } from "./seat-play.js";
import type { SeatScore } from "./seat-score.js";
import { closingNarration } from "./transcript.js";

/** One side of a preference pair: a seat's latest score and whether its run is flagged. */
export interface DpoSide {
  readonly score: SeatScore;
  readonly flagged: boolean;
}

/**
 * The DPO record (format 1.0, spec 4.10) for one seat of two scored runs of one scenario, or null on
 * a tie (same `met_count` and composite mean). The higher composite is chosen; on equal composites the
 * higher `met_count`. Pairs align the two seats' steps by step index.
 */
export function dpoRecord(seed: number, a: DpoSide, b: DpoSide): DpoRecord | null {
  const order = a.score.composite - b.score.composite || a.score.play.met.size - b.score.play.met.size;
  if (order === 0) return null;
  const [chosen, rejected] = order > 0 ? [a.score, b.score] : [b.score, a.score];
  // Aligned by step index (`alignment: "step_index"`): step i of one seat against step i of the
  // other, wherever both acted.
  const pairs: DpoRecord["pairs"] = [];
  for (const [index, step] of chosen.play.steps.entries()) {
    const other = rejected.play.steps[index]?.action;
    if (step.action === null || other === undefined || other === null) continue;
    pairs.push({ index, chosen: { ...step.action }, rejected: { ...other }, alignment: "step_index" });
  }
  const campaign = chosen.plan.campaign;
  return {
    dpo_format_version: "1.0",
    run_chosen: chosen.plan.runId,
    run_rejected: rejected.plan.runId,
    scenario: {
      campaign_id: campaign.campaignId,
      seed: chosen.plan.seed,
      win_conditions: campaign.winConditions.map((c) => ({ id: c.id, description: c.description })),
    },
    scoring_basis: {
      composite_delta: round4(chosen.composite - rejected.composite),
      objective_delta: chosen.play.met.size - rejected.play.met.size,
    },
    seat_index: chosen.seat.seatIndex,
    flagged: a.flagged || b.flagged,
    pairs,
    outcome: { dm_messages: closingNarration(seed, chosen.plan) },
  };
}
