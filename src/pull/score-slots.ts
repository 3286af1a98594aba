import type { SeatGate } from "../formats/gate-book.js";
import { HashNumbers, type ScoredRun } from "./score-table.js";
import { CardRanges } from "./card-store.js";

const NO_GATES: readonly SeatGate[] = [];

const HAS_COMPOSITE = 2;
const FILLED = 4;

/**
 * Scores by position in a run list, filled in any order and read back in list order: scores taken as
 * they complete (issue 40) still reach the cache and the caller in the same order every time. Typed
 * arrays, not one object per run, so a 100,000-run world's scores stay off the heap (issue 21).
 */
export class ScoreSlots {
  readonly #flags: Uint8Array;
  readonly #composites: Float64Array;
  /** NaN where no version is cached. */
  readonly #versions: Float64Array;
  /** Seats + 1; 0 where unknown. */
  readonly #seats: Uint32Array;
  /** Scenario hash numbers (see HashNumbers); 0 where unknown. */
  readonly #hashOf: Uint32Array;
  readonly #hashes = new HashNumbers();
  /** A run's cards that are not open, kept only for the few runs that have any. */
  readonly #gates = new Map<number, readonly SeatGate[]>();
  readonly #cards: CardRanges;

  constructor(size: number) {
    this.#cards = new CardRanges(size);
    this.#flags = new Uint8Array(size);
    this.#composites = new Float64Array(size);
    this.#versions = new Float64Array(size).fill(Number.NaN);
    this.#seats = new Uint32Array(size);
    this.#hashOf = new Uint32Array(size);
  }

  set(index: number, score: ScoredRun): void {
    this.#flags[index] = FILLED | (score.composite === undefined ? 0 : HAS_COMPOSITE);
    if (score.gates.length > 0) this.#gates.set(index, score.gates);
    this.#composites[index] = score.composite ?? 0;
    this.#versions[index] = score.cachedVersion ?? Number.NaN;
    this.#seats[index] = score.seats === undefined ? 0 : score.seats + 1;
    this.#hashOf[index] = this.#hashes.number(score.hash);
    this.#cards.set(index, score.cards);
  }

  /** The score set at `index`; throws if none was (a caller that read a slot it never filled). */
  get(index: number): ScoredRun {
    const flags = this.#flags[index] as number;
    if ((flags & FILLED) === 0) throw new Error(`no score at ${index}`);
    const version = this.#versions[index] as number;
    const seats = (this.#seats[index] as number) - 1;
    const hash = this.#hashes.hash(this.#hashOf[index] as number);
    const cards = this.#cards.get(index);
    return {
      ...(hash === undefined ? {} : { hash }),
      ...(cards === undefined ? {} : { cards }),
      gates: this.#gates.get(index) ?? NO_GATES,
      composite: (flags & HAS_COMPOSITE) === 0 ? undefined : (this.#composites[index] as number),
      ...(seats < 0 ? {} : { seats }),
      cachedVersion: Number.isNaN(version) ? undefined : version,
    };
  }
}
