import type { DpoRecord } from "../formats/dpo.js";
import { badRequest, conflict } from "./http-errors.js";
import { requireScored, type RunView } from "./run-access.js";
import { dpoRecord } from "./records-dpo.js";
import { seatScore } from "./seat-score.js";
import type { World } from "./world.js";

/**
 * DPO records between two runs the caller may see, for the given seats, in spec 4.10's error order:
 * 400 for different scenarios, 409 for a run not yet scored, 400 when a run has no per-seat trace to
 * align ("provenance missing"), 409 when every seat ties.
 */
export function dpoRecords(world: World, a: RunView, b: RunView, seatIndexes: readonly number[]): DpoRecord[] {
  if (a.plan.campaign.campaignId !== b.plan.campaign.campaignId) {
    throw badRequest(`Runs ${a.plan.runId} and ${b.plan.runId} are of different scenarios`);
  }
  requireScored(a);
  requireScored(b);
  for (const view of [a, b]) {
    if (view.plan.reconstruction !== "per_seat_trace") {
      throw badRequest(`Provenance missing: run ${view.plan.runId} has no per-seat trace (${view.plan.reconstruction})`);
    }
  }
  const records = seatIndexes.flatMap((seat) => {
    const side = (v: RunView) => ({ score: seatScore(world, v.plan, seat, v.state.version), flagged: v.state.flagged });
    const record = dpoRecord(world.seed, side(a), side(b));
    return record === null ? [] : [record];
  });
  if (records.length === 0) throw conflict(`Runs ${a.plan.runId} and ${b.plan.runId} tie: same met_count and composite mean`);
  return records;
}
