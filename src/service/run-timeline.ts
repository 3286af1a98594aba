import { SeededRandom } from "./seeded-random.js";

/**
 * When things happen to a run, in epochs (epoch 0 is the start; earlier epochs are the past).
 * Everything a run reports at an epoch follows from these numbers.
 */
export interface RunTimeline {
  /** Leaves `pending`. */
  readonly launch: number;
  /** Shows `launching` during the launch epoch instead of `running`. */
  readonly launchingShown: boolean;
  /** Finishes: `completed`, or `failed`. */
  readonly complete: number;
  readonly failed: boolean;
  /** The judge finishes: `scored` becomes true, scorecard version 1. */
  readonly scored: number;
  /** Each rescore adds a scorecard version. */
  readonly rescores: readonly number[];
  /** Flagged for manual score review from this epoch on (never before it is scored). */
  readonly flaggedAt: number | null;
}

/** The stages a run can be in at epoch 0, roughly by age: the newest runs are the least advanced. */
const STAGE_THRESHOLDS = { pending: 0.15, running: 0.27, completed: 0.39 } as const;

/**
 * Draws the timeline of run `n`. `ageRank` is 0 for the newest run and 1 for the oldest; `ageEpochs` is
 * how long before epoch 0 it was created.
 */
export function drawTimeline(seed: number, n: number, ageRank: number, ageEpochs: number): RunTimeline {
  const random = new SeededRandom(seed, "timeline", n);
  // Age in the world's order, but in a large world anything over a day old has long finished.
  const position = Math.max(ageRank, ageEpochs / 24) + (random.next() - 0.5) * 0.2;
  const running = random.int(1, 3);
  const judging = random.int(1, 3);
  let launch: number;
  if (position < STAGE_THRESHOLDS.pending) {
    launch = random.int(1, 3);
  } else if (position < STAGE_THRESHOLDS.running) {
    launch = -random.int(0, running - 1);
  } else if (position < STAGE_THRESHOLDS.completed) {
    launch = random.int(1, judging) - judging - running;
  } else {
    // Scored a few epochs after creation (clamped so that it is scored by epoch 0).
    launch = Math.min(-running - judging, -ageEpochs + random.int(0, 2));
  }
  const complete = launch + running;
  const scored = complete + judging;
  const failed = random.chance(0.05);

  const rescores: number[] = [];
  if (!failed) {
    if (scored < 0 && random.chance(0.15)) rescores.push(random.int(scored + 1, 0));
    if (random.chance(0.1)) rescores.push(Math.max(scored, 0) + random.int(1, 4));
    if (rescores.length > 0 && random.chance(0.25)) rescores.push(Math.max(...rescores) + random.int(1, 3));
  }
  let flaggedAt: number | null = null;
  if (!failed) {
    const u = random.next();
    if (u < 0.04) flaggedAt = scored;
    else if (u < 0.08) flaggedAt = scored + random.int(1, 4);
    else if (u < 0.11) flaggedAt = Math.max(scored, 0) + random.int(1, 4);
  }
  return { launch, launchingShown: random.chance(0.3), complete, failed, scored, rescores, flaggedAt };
}
