import { ConfigError } from "../core/errors.js";
import { systemClock, type Clock } from "./clock.js";
import { releaseOnce } from "./release-once.js";
import { DEFAULT_RETRY_POLICY } from "./retry-policy.js";

/** Longer than any one wait (a stall is cut at the attempt's total limit, an hour by default). */
const FORGET_AFTER_MS = 2 * 3_600_000;

/**
 * How long one night may spend waiting on failures, across every request, retry, restart and client of
 * the night. Charged: bodies that stall and responses that never come (each such wait, when it ends), and the
 * time during which requests wait out a backoff or `Retry-After` while no request of the night is in flight
 * (a backoff while others keep the connection busy costs the night nothing). Charges are spans of the clock,
 * each span counted once, so what it bounds is how much longer a night runs than it would without failures.
 * A failure once the budget is spent is final (the night fails and publishes nothing); no wait is longer than
 * what is left.
 */
export class RetryBudget {
  readonly totalMs: number;
  private spent = 0;
  /** The spans charged, disjoint and in order; those that ended long ago are let go. */
  private spans: [number, number][] = [];
  private inFlight = 0;
  private waiting = 0;
  /** Since when requests wait on failures with none in flight; undefined while that is not so. */
  private idleSince: number | undefined;

  /** Default: the retry policy's `maxElapsedMs`, as for a client that is given no budget. */
  constructor(
    totalMs: number = DEFAULT_RETRY_POLICY.maxElapsedMs,
    private readonly clock: Clock = systemClock,
  ) {
    if (!Number.isSafeInteger(totalMs) || totalMs < 0) throw new ConfigError(`Expected a retry budget in whole milliseconds from 0 up, got ${JSON.stringify(totalMs)}`);
    this.totalMs = totalMs;
  }

  /** Milliseconds of waiting left, 0 once spent. */
  leftMs(): number {
    return Math.max(0, this.totalMs - this.spentNow());
  }

  get spentMs(): number {
    return Math.min(this.totalMs, this.spentNow());
  }

  isSpent(): boolean {
    return this.spentNow() >= this.totalMs;
  }

  /** A request is in flight until the returned function is called (calling it again does nothing). */
  busy(): () => void {
    return this.hold(() => this.inFlight++, () => this.inFlight--);
  }

  /** A request waits on a failure (a backoff) until the returned function is called. */
  wait(): () => void {
    return this.hold(() => this.waiting++, () => this.waiting--);
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

  private hold(enter: () => void, leave: () => void): () => void {
    enter();
    this.settle();
    return releaseOnce(() => {
      leave();
      this.settle();
    });
  }

  /** Opens or closes the span in which requests wait with none in flight. */
  private settle(): void {
    const idle = this.waiting > 0 && this.inFlight === 0;
    if (idle && this.idleSince === undefined) this.idleSince = this.clock.now();
    else if (!idle && this.idleSince !== undefined) {
      this.charge(this.idleSince, this.clock.now());
      this.idleSince = undefined;
    }
  }

  private spentNow(): number {
    return this.spent + (this.idleSince === undefined ? 0 : Math.max(0, this.clock.now() - this.idleSince));
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
