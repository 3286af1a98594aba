import { blocksNewestFirst, BLOCK_SIZE, makeBlock, type BatchItemPlan, type BlockPlan } from "./block-plan.js";
import type { Campaign, Pilot } from "./campaigns.js";
import { drawTimeline, type RunTimeline } from "./run-timeline.js";
import { SeededRandom } from "./seeded-random.js";
import type { WorldBasis } from "./world-basis.js";

export type Reconstruction = "per_seat_trace" | "attribution_unavailable" | "no_session";

/** A seat of a run, as the owner configured it. */
export interface SeatPlan {
  readonly seatIndex: number;
  readonly role: string;
  readonly pilot: Pilot;
  /** For `agent` seats; null for `aic` seats. */
  readonly agentKeyId: string | null;
  /** For `aic` seats; null for `agent` seats. */
  readonly aicConfigId: string | null;
}

/** Everything about run `n` that does not change with the epoch. */
export interface RunPlan {
  readonly n: number;
  readonly runId: string;
  readonly account: number;
  readonly campaign: Campaign;
  readonly block: BlockPlan;
  /** The batch item that created the run; null for a run the owner created alone. */
  readonly item: BatchItemPlan | null;
  readonly createdAt: number;
  /** The scenario seed the run was played with. */
  readonly seed: number;
  readonly seats: readonly SeatPlan[];
  readonly timeline: RunTimeline;
  readonly reconstruction: Reconstruction;
  /** DM turns once the run has finished. */
  readonly turns: number;
  readonly coachingOptIn: boolean;
}

/** Run `n`: a pure function of the seed and `n` (and the world's small fixed basis). */
export function makeRunPlan(world: WorldBasis, n: number, block: BlockPlan = makeBlock(world, Math.floor(n / BLOCK_SIZE))): RunPlan {
  const random = new SeededRandom(world.seed, "run", n);
  const item = block.batch?.items.find((i) => n >= i.first && n < i.end) ?? null;
  const campaign = item?.campaign ?? random.pick(world.campaigns[block.account] ?? []);
  const keys = world.seatPools[block.account]?.assign(campaign, n) ?? [];
  const aicIds = world.ids.aicConfig;
  const seats = campaign.slots.map((slot, seatIndex): SeatPlan => {
    const agentKeyId = slot.pilot === "agent" ? (keys[campaign.agentSlots.indexOf(seatIndex)] ?? null) : null;
    return {
      seatIndex,
      role: slot.role,
      pilot: slot.pilot,
      agentKeyId,
      aicConfigId: slot.pilot === "aic" ? aicIds.encode(block.account * 8 + (campaign.index % 8)) : null,
    };
  });
  const u = random.next();
  return {
    n,
    runId: world.ids.run.encode(n),
    account: block.account,
    campaign,
    block,
    item,
    createdAt: world.clock.runCreated(n),
    seed: random.int(1, 2_147_483_646),
    seats,
    timeline: drawTimeline(world.seed, n, ageRank(world.runCount, n), world.clock.runAgeEpochs(n)),
    // Mostly per-seat traces; the spec calls that value "preferred".
    reconstruction: u < 0.82 ? "per_seat_trace" : u < 0.94 ? "attribution_unavailable" : "no_session",
    turns: random.int(8, 22),
    coachingOptIn: item?.coachingOptIn ?? random.chance(0.5),
  };
}

/** Runs of `account`, newest first; blocks of other accounts are skipped whole. */
export function* runsNewestFirst(world: WorldBasis, account: number): Generator<RunPlan> {
  for (const block of blocksNewestFirst(world, account)) yield* blockRunsNewestFirst(world, block);
}

/** The runs of one block, newest first. */
export function* blockRunsNewestFirst(world: WorldBasis, block: BlockPlan): Generator<RunPlan> {
  for (let n = block.end - 1; n >= block.first; n--) yield makeRunPlan(world, n, block);
}

function ageRank(runCount: number, n: number): number {
  return runCount <= 1 ? 0 : (runCount - 1 - n) / (runCount - 1);
}
