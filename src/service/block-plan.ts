import type { Campaign } from "./campaigns.js";
import { SeededRandom } from "./seeded-random.js";
import type { WorldBasis } from "./world-basis.js";

/** Runs are created in blocks of this many consecutive run numbers: one batch, or one-off runs. */
export const BLOCK_SIZE = 10;

/** Share of runs in the second account (the one without `rl_dpo_export`). */
const SECOND_ACCOUNT_SHARE = 0.15;
const BATCH_SHARE = 0.7;

const LABELS = [null, "baseline", "prompt-v2", "temperature-0.2", "ablation/no-memory", "long-context retrieval on"] as const;

export interface BatchItemPlan {
  readonly label: string | null;
  readonly campaign: Campaign;
  /** Run numbers `first` to `end - 1`. */
  readonly first: number;
  readonly end: number;
  readonly coachingOptIn: boolean;
}

export interface BatchPlan {
  readonly block: number;
  readonly batchId: string;
  readonly concurrency: number;
  readonly createdAt: number;
  readonly items: readonly BatchItemPlan[];
  /** Epoch at which the owner cancelled the batch: runs still pending then are cancelled. */
  readonly cancelAt: number | null;
}

/** One block of runs: whose they are, and the batch that created them (null for one-off runs). */
export interface BlockPlan {
  readonly block: number;
  readonly account: number;
  readonly first: number;
  readonly end: number;
  readonly batch: BatchPlan | null;
}

export function blockCount(runCount: number): number {
  return Math.ceil(runCount / BLOCK_SIZE);
}

/** The blocks of `account`, newest first. */
export function* blocksNewestFirst(world: WorldBasis, account: number): Generator<BlockPlan> {
  for (let b = blockCount(world.runCount) - 1; b >= 0; b--) {
    const block = makeBlock(world, b);
    if (block.account === account) yield block;
  }
}

/** Block `b`: a pure function of the seed and `b`. */
export function makeBlock(world: WorldBasis, b: number): BlockPlan {
  const random = new SeededRandom(world.seed, "block", b);
  const account = random.chance(SECOND_ACCOUNT_SHARE) ? 1 : 0;
  const first = b * BLOCK_SIZE;
  const end = Math.min(world.runCount, first + BLOCK_SIZE);
  if (!random.chance(BATCH_SHARE)) return { block: b, account, first, end, batch: null };

  const campaigns = world.campaigns[account] ?? [];
  const itemCount = Math.min(end - first, random.int(1, 3));
  const items: BatchItemPlan[] = [];
  for (let i = 0, start = first; i < itemCount; i++) {
    const stop = i === itemCount - 1 ? end : start + Math.max(1, Math.floor((end - first) / itemCount));
    items.push({ label: random.pick(LABELS), campaign: random.pick(campaigns), first: start, end: stop, coachingOptIn: random.chance(0.6) });
    start = stop;
  }
  // Only recent batches are cancelled: cancelling one whose runs all launched long ago would change nothing.
  const recent = b >= blockCount(world.runCount) * 0.8;
  return {
    block: b,
    account,
    first,
    end,
    batch: {
      block: b,
      batchId: world.ids.batch.encode(b),
      concurrency: random.int(1, 8),
      createdAt: world.clock.runCreated(first) - 30_000,
      items,
      cancelAt: recent && random.chance(0.15) ? random.int(0, 2) : null,
    },
  };
}
