import { ConfigError } from "../core/errors.js";
import { systemClock, type Clock } from "./clock.js";

/** Longer than any one wait (a stall is cut at the attempt's total limit, an hour by default). */
const FORGET_AFTER_MS = 2 * 3_600_000;

/** The budget of a client that is given none: the retry policy's `maxElapsedMs`, for all its requests. */
export const DEFAULT_RETRY_BUDGET_MS = 15 * 60_000;

/**
 * How long one night may spend waiting on failures, across every request, retry, restart and client of
 * the night: backoff and `Retry-After` waits, bodies that stall, responses that never come. Waits are
 * charged as spans of the clock and a span already charged is not charged twice, so four requests backing
 * off together spend the budget as one wait does: what it bounds is how much longer a night runs than it
 * would without failures. A failure once the budget is spent is final (the night fails and publishes
 * nothing); a wait is never longer than what is left.
 */
export class RetryBudget {
  readonly totalMs: number;
  private spent = 0;
  /** The spans charged, disjoint and in order; those that ended long ago are let go. */
  private spans: [number, number][] = [];

  constructor(
    totalMs: number = DEFAULT_RETRY_BUDGET_MS,
    private readonly clock: Clock = systemClock,
  ) {
    if (!Number.isSafeInteger(totalMs) || totalMs < 0) throw new ConfigError(`Expected a retry budget in whole milliseconds from 0 up, got ${JSON.stringify(totalMs)}`);
    this.totalMs = totalMs;
  }

  /** Milliseconds of waiting left, 0 once spent. */
  leftMs(): number {
    return Math.max(0, this.totalMs - this.spent);
  }

  get spentMs(): number {
    return Math.min(this.totalMs, this.spent);
  }

  isSpent(): boolean {
    return this.spent >= this.totalMs;
  }

  /** Charges a wait about to start now and last `ms` (a backoff). */
  chargeAhead(ms: number): void {
    const now = this.clock.now();
    this.charge(now, now + ms);
  }

  /** Charges a wait that just ended after `ms` (a stall, a response that never came). */
  chargeEnded(ms: number): void {
    const now = this.clock.now();
    this.charge(now - ms, now);
  }

  /** A limit of a wait on the network (`limitMs`) cut to what is left, but never under `floorMs`: a healthy response is not failed because others used the budget up. */
  capped(limitMs: number, floorMs: number): number {
    return Math.min(limitMs, Math.max(floorMs, this.leftMs()));
  }

  /** How the budget reads in messages: `900 s`. */
  describe(): string {
    return this.totalMs % 1000 === 0 ? `${this.totalMs / 1000} s` : `${this.totalMs} ms`;
  }

  private charge(from: number, to: number): void {
    if (!(to > from)) return;
    let start = from;
    let end = to;
    let covered = 0;
    const kept: [number, number][] = [];
    for (const span of this.spans) {
      if (span[1] < from - FORGET_AFTER_MS) continue;
      if (span[1] < start || span[0] > end) {
        kept.push(span);
        continue;
      }
      covered += Math.max(0, Math.min(span[1], to) - Math.max(span[0], from));
      start = Math.min(start, span[0]);
      end = Math.max(end, span[1]);
    }
    this.spent += to - from - covered;
    kept.push([start, end]);
    this.spans = kept.sort((a, b) => a[0] - b[0]);
  }
}
