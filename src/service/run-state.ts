import type { RunPlan } from "./run-plan.js";
import { unitOf } from "./seeded-random.js";

export type RunStatus = "pending" | "launching" | "running" | "completed" | "failed" | "cancelled";

/** What a run reports at one epoch. */
export interface RunState {
  readonly status: RunStatus;
  readonly scored: boolean;
  /** Latest scorecard version; 0 while unscored. */
  readonly version: number;
  /** Every scorecard version so far, oldest first; empty while unscored. */
  readonly versions: readonly number[];
  readonly flagged: boolean;
  readonly turnCount: number;
  /** The session orchestrator is unreachable this epoch (spec 7, rule 5): status answers degraded. */
  readonly degraded: boolean;
}

/** The state of a run at `epoch`. */
export function runState(seed: number, plan: RunPlan, epoch: number): RunState {
  const t = plan.timeline;
  const cancelAt = plan.block.batch?.cancelAt ?? null;
  const base = { scored: false, version: 0, versions: [], flagged: false, degraded: false };
  if (cancelAt !== null && epoch >= cancelAt && t.launch > cancelAt) return { ...base, status: "cancelled", turnCount: 0 };
  if (epoch < t.launch) return { ...base, status: "pending", turnCount: 0 };
  if (epoch === t.launch && t.launchingShown) return { ...base, status: "launching", turnCount: 0 };
  if (epoch < t.complete) {
    const share = (epoch - t.launch + 1) / (t.complete - t.launch + 1);
    const degraded = unitOf(seed, "degraded", plan.n, epoch) < 0.05;
    return { ...base, status: "running", turnCount: Math.floor(plan.turns * share), degraded };
  }
  if (t.failed) return { ...base, status: "failed", turnCount: Math.floor(plan.turns * 0.6) };
  if (epoch < t.scored) return { ...base, status: "completed", turnCount: plan.turns };
  const version = 1 + t.rescores.filter((r) => r <= epoch).length;
  return {
    status: "completed",
    scored: true,
    version,
    versions: Array.from({ length: version }, (_, i) => i + 1),
    flagged: t.flaggedAt !== null && epoch >= t.flaggedAt,
    turnCount: plan.turns,
    degraded: false,
  };
}

/** The epoch at which scorecard `version` of a run was produced. */
export function versionEpoch(plan: RunPlan, version: number): number {
  return version <= 1 ? plan.timeline.scored : (plan.timeline.rescores[version - 2] ?? plan.timeline.scored);
}
