import type { BlockPlan } from "./block-plan.js";
import { makeRunPlan } from "./run-plan.js";
import type { RunStatus } from "./run-state.js";
import { round4 } from "./seat-play.js";
import { runScores } from "./seat-score.js";
import type { World } from "./world.js";
import { iso } from "./world-clock.js";

/** A batch in the listing (spec 4.5). */
export interface BatchSummary {
  batch_id: string;
  status: string | null;
  total_runs: number;
  concurrency: number;
  created_at: string;
}

/** A batch's detail (spec 2.9). */
export interface BatchDetail extends BatchSummary {
  run_counts: Record<RunStatus | "scored", number>;
  items: { label: string | null; scenario_id: string; run_count: number; mean_trait_scores?: Record<string, number> }[];
}

/** The detail of a batch block at an epoch; `summary` leaves out the per-run work of counts and means. */
export function batchBody(world: World, block: BlockPlan, epoch: number, summary: true): BatchSummary;
export function batchBody(world: World, block: BlockPlan, epoch: number, summary: false): BatchDetail;
export function batchBody(world: World, block: BlockPlan, epoch: number, summary: boolean): BatchSummary | BatchDetail {
  const batch = block.batch;
  if (batch === null) throw new RangeError(`Block ${block.block} is not a batch`);
  const counts = { pending: 0, launching: 0, running: 0, completed: 0, failed: 0, cancelled: 0, scored: 0 };
  const items = batch.items.map((item) => {
    const traitSums = new Map<string, { sum: number; count: number }>();
    for (let n = item.first; n < item.end; n++) {
      const plan = makeRunPlan(world, n, block);
      const state = world.state(plan, epoch);
      counts[state.status]++;
      if (!state.scored) continue;
      counts.scored++;
      if (summary) continue;
      for (const score of runScores(world, plan, state.version)) {
        if (score.seat.pilot !== "agent") continue;
        for (const [trait, value] of Object.entries(score.perTrait)) {
          const entry = traitSums.get(trait) ?? { sum: 0, count: 0 };
          traitSums.set(trait, { sum: entry.sum + value.mean, count: entry.count + 1 });
        }
      }
    }
    const base = { label: item.label, scenario_id: item.campaign.campaignId, run_count: item.end - item.first };
    // Absent, not empty, for a label group with no scored runs (spec 2.9).
    return traitSums.size === 0 ? base : { ...base, mean_trait_scores: Object.fromEntries([...traitSums].map(([t, s]) => [t, round4(s.sum / s.count)])) };
  });
  const total = block.end - block.first;
  const cancelled = batch.cancelAt !== null && epoch >= batch.cancelAt;
  const finished = counts.completed + counts.failed + counts.cancelled === total;
  const status = cancelled ? "cancelled" : finished ? "completed" : counts.pending === total ? "pending" : "running";
  const head: BatchSummary = {
    batch_id: batch.batchId,
    status,
    total_runs: total,
    concurrency: batch.concurrency,
    created_at: iso(batch.createdAt),
  };
  return summary ? head : { ...head, run_counts: counts, items };
}
