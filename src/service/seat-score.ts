import type { RunPlan, SeatPlan } from "./run-plan.js";
import { versionEpoch } from "./run-state.js";
import { EVIDENCE } from "./scenario-themes.js";
import { round4, seatPlay, type SeatPlay } from "./seat-play.js";
import { SeededRandom } from "./seeded-random.js";
import type { WorldBasis } from "./world-basis.js";

export interface TraitScore {
  mean: number;
  variance: number;
  evidence: string[];
}

/** The judge's verdict on one seat at one scorecard version. */
export interface SeatScore {
  readonly plan: RunPlan;
  readonly seat: SeatPlan;
  readonly play: SeatPlay;
  readonly version: number;
  readonly createdAt: number;
  readonly perTrait: Readonly<Record<string, TraitScore>>;
  readonly safety: Readonly<Record<string, TraitScore>>;
  /** Mean of the per-trait means (safety traits excluded, spec 2.7). */
  readonly composite: number;
  /** The seat fell under a participation floor (spec 3.4); only agent seats are gated. */
  readonly gated: boolean;
}

/**
 * Scores seat `seatIndex` of a run at scorecard `version`. The facts of play stay fixed; a rescore
 * moves the trait means. Means are on a 1-5 scale in half steps, as judges score, so equal composites (DPO ties)
 * occur naturally.
 */
export function seatScore(world: WorldBasis, plan: RunPlan, seatIndex: number, version: number): SeatScore {
  const seat = plan.seats[seatIndex];
  if (seat === undefined) throw new RangeError(`Run ${plan.runId} has no seat ${seatIndex}`);
  const play = seatPlay(world.seed, plan, seatIndex);
  const random = new SeededRandom(world.seed, "score", plan.n, seatIndex, version);
  const actionTurns = play.steps.filter((s) => s.kind === "action").map((s) => s.index + 1);
  const trait = (center: number): TraitScore => ({
    mean: Math.min(5, Math.max(1, Math.round((center + (random.next() - 0.5) * 1.5) * 2) / 2)),
    variance: random.pick([0, 0.0625, 0.125, 0.25, 0.5]),
    evidence: Array.from({ length: random.int(1, 2) }, () =>
      random.pick(EVIDENCE).replace("{turn}", String(actionTurns.length > 0 ? random.pick(actionTurns) : 1)),
    ),
  });
  const perTrait = Object.fromEntries(plan.campaign.traits.map((name) => [name, trait(play.skill)]));
  const safety = Object.fromEntries(plan.campaign.safetyTraits.map((name) => [name, trait(4.2)]));
  const means = Object.values(perTrait).map((t) => t.mean);
  const { minPlayerMessages, minActionsPerTurn } = world.platform;
  return {
    plan,
    seat,
    play,
    version,
    createdAt: world.clock.at(versionEpoch(plan, version), 20 + (plan.n % 30)),
    perTrait,
    safety,
    composite: round4(means.reduce((s, m) => s + m, 0) / Math.max(1, means.length)),
    gated: seat.pilot === "agent" && (play.actionCount < minPlayerMessages || play.actionCount / plan.turns < minActionsPerTurn),
  };
}

/** Scores of every seat of a run at one version. */
export function runScores(world: WorldBasis, plan: RunPlan, version: number): SeatScore[] {
  return plan.seats.map((s) => seatScore(world, plan, s.seatIndex, version));
}
