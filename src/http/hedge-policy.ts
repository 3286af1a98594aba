import { releaseOnce } from "./release-once.js";

/** Recent attempt times kept per kind of wait: enough for a stable 90th percentile, little to sort. */
const WINDOW = 256;
/** No hedge until this many answers were timed: the first requests tell us what "slow" is. */
const MIN_SAMPLES = 16;
/** A hedge waits this many times the recent 90th percentile... */
const DELAY_FACTOR = 3;
/**
 * ...and never less than this: jitter of a healthy answer is not slowness. Low, because on a fast service (over
 * a network the percentile is above it) each slow answer holds its slot this long before its copy goes out.
 */
const MIN_DELAY_MS = 25;
/** The delay is worked out again after this many new answers (not per request: it sorts the window). */
const RECOMPUTE_EVERY = 32;
/** Hedges earned per attempt started: at most one extra request per ten, whatever the service does. */
const HEDGE_SHARE = 0.1;

/** What a hedge waits on: a whole JSON answer, or an NDJSON answer's first line (see readAhead). */
export type HedgeWait = "answer" | "first_line";

/**
 * When a slow GET gets a second copy (a hedge), and how many copies may be out. A copy goes out when the
 * first attempt has taken {@link DELAY_FACTOR} times the recent 90th percentile of such waits (at least
 * {@link MIN_DELAY_MS}); whichever answers first is used and the other is aborted. Bounded twice, so a
 * slow service is not hammered: hedges in flight at most `extraSlots` (the client's concurrency, so at
 * most twice `--concurrency` requests are out), and at most one hedge per ten attempts over the night.
 */
export class HedgePolicy {
  private readonly samples: Record<HedgeWait, number[]> = { answer: [], first_line: [] };
  private readonly next: Record<HedgeWait, number> = { answer: 0, first_line: 0 };
  private readonly delays: Record<HedgeWait, { ms: number; fresh: number }> = { answer: { ms: Infinity, fresh: 0 }, first_line: { ms: Infinity, fresh: 0 } };
  private tokens = 0;
  private inFlight = 0;

  constructor(private readonly extraSlots: number) {}

  /** An attempt starts: it earns a share of a hedge. */
  started(): void {
    this.tokens = Math.min(this.extraSlots, this.tokens + HEDGE_SHARE);
  }

  /** How long a first attempt waits for `wait` before a hedge may go out; Infinity while too few answers were timed. */
  delayMs(wait: HedgeWait): number {
    return this.delays[wait].ms;
  }

  /** Times an answer that came (the winner's own time, so hedged waits do not raise the bar). */
  record(wait: HedgeWait, ms: number): void {
    const samples = this.samples[wait];
    if (samples.length < WINDOW) samples.push(ms);
    else samples[this.next[wait]] = ms;
    this.next[wait] = (this.next[wait] + 1) % WINDOW;
    const delay = this.delays[wait];
    if (samples.length < MIN_SAMPLES || (++delay.fresh < RECOMPUTE_EVERY && delay.ms !== Infinity)) return;
    delay.fresh = 0;
    const sorted = [...samples].sort((a, b) => a - b);
    delay.ms = Math.max(MIN_DELAY_MS, DELAY_FACTOR * (sorted[Math.floor(sorted.length * 0.9)] ?? 0));
  }

  /** A hedge slot, or null when none is free or none is earned; the returned function frees it (once). */
  tryHedge(): (() => void) | null {
    if (this.inFlight >= this.extraSlots || this.tokens < 1) return null;
    this.tokens -= 1;
    this.inFlight++;
    return releaseOnce(() => this.inFlight--);
  }
}
