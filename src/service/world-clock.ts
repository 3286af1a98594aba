/** One epoch of world time: the unit `advance()` moves the world by. */
const EPOCH_MS = 3_600_000;

/** Runs are spread over at most this span before epoch 0, whatever their number. */
const MAX_SPAN_MS = 120 * 86_400_000;
const DEFAULT_SPACING_MS = 137_000;

/**
 * The emulator's own clock. Every timestamp in a response comes from here, never from the wall clock,
 * so two servers with one seed answer byte-identical bodies.
 */
export class WorldClock {
  /** The start of epoch 0. */
  readonly t0 = Date.UTC(2025, 5, 2, 12, 0, 0);
  private readonly spacing: number;

  constructor(private readonly runCount: number) {
    this.spacing = Math.max(1_000, Math.min(DEFAULT_SPACING_MS, Math.floor(MAX_SPAN_MS / Math.max(1, runCount))));
  }

  /** When run `n` was created: run numbers grow with time, the last run is the newest. */
  runCreated(n: number): number {
    return this.t0 - (this.runCount - n) * this.spacing;
  }

  /** Age of run `n` at epoch 0, in whole epochs. */
  runAgeEpochs(n: number): number {
    return Math.floor((this.t0 - this.runCreated(n)) / EPOCH_MS);
  }

  /** When something that happened at `epoch` happened, `minute` minutes into it (0 to 50: `now` comes after them). */
  at(epoch: number, minute: number): number {
    return this.t0 + epoch * EPOCH_MS + minute * 60_000;
  }

  /** "Now" during `epoch`: after everything that happened in it. */
  now(epoch: number): number {
    return this.at(epoch, 55);
  }

  /** Before any run: when the accounts and their first keys were set up. */
  get genesis(): number {
    return this.runCreated(0) - 7 * 86_400_000;
  }
}

/** ISO 8601 UTC, the spec's timestamp form. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
