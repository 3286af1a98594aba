import { grown } from "../core/grown.js";
import { InternedKeys } from "../core/interned-keys.js";
import type { SeatGate } from "../formats/gate-book.js";
import type { RunCard } from "../formats/scorecard-book.js";
import { ScoreBookWriter } from "../formats/score-book-writer.js";

/** One run's score as the columns hold it (a cache entry, or a score as a pull took it): any field may be unknown. */
export interface ColumnScore {
  /** The scorecard version the score describes. */
  readonly version?: number | undefined;
  readonly gates: readonly SeatGate[];
  readonly composite?: number | undefined;
  readonly seats?: number | undefined;
  readonly hash?: string | undefined;
  readonly cards?: readonly RunCard[] | undefined;
}

/** A filled slot read back: the fields a score has, the unknown optional ones left out. */
export interface SlotScore {
  readonly version: number | undefined;
  readonly gates: readonly SeatGate[];
  readonly composite: number | undefined;
  readonly seats?: number;
  readonly hash?: string;
  readonly cards?: RunCard[];
}

const FILLED = 1;
const HAS_COMPOSITE = 2;
const NO_GATES: readonly SeatGate[] = [];

/**
 * Runs' scores by number, in typed columns that grow as slots are set: a 100,000-run world's scores (the
 * cache a night reads and leaves, the scores a pull takes as they complete) stay off the JS heap, not an
 * object per run (issue 21; docs/decisions.md, "Nightly pull memory: per-run state off the heap"). The few
 * runs with a card that is not open keep their gates in a Map; scenario hashes are interned (a world has few).
 * A run's cards are a range of a {@link ScoreBookWriter}, which a pull's score cache shares with its book.
 */
export class RunScores {
  #flags: Uint8Array;
  /** NaN where the version is unknown. */
  #versions: Float64Array;
  #composites: Float64Array;
  /** Seats + 1; 0 where unknown. */
  #seats: Uint32Array;
  /** The scenario hash's number in `#hashes`; 0 where unknown. */
  #hashOf: Uint32Array;
  readonly #hashes = new InternedKeys();
  readonly #gates = new Map<number, readonly SeatGate[]>();
  readonly #store: ScoreBookWriter;
  /** Where the run's cards start in `#store`. */
  #cardStart: Uint32Array;
  /** The run's cards + 1; 0 where none are known (not the same as a run with none valid). */
  #cardCount: Uint32Array;

  constructor(size = 1024, store = new ScoreBookWriter()) {
    this.#flags = new Uint8Array(size);
    this.#versions = new Float64Array(size);
    this.#composites = new Float64Array(size);
    this.#seats = new Uint32Array(size);
    this.#hashOf = new Uint32Array(size);
    this.#cardStart = new Uint32Array(size);
    this.#cardCount = new Uint32Array(size);
    this.#store = store;
  }

  /** Sets the score at `index`, of run `runId` (its cards' run in the store). */
  set(index: number, runId: string, score: ColumnScore): void {
    if (index >= this.#flags.length) {
      this.#flags = grown(this.#flags, index + 1);
      this.#versions = grown(this.#versions, index + 1);
      this.#composites = grown(this.#composites, index + 1);
      this.#seats = grown(this.#seats, index + 1);
      this.#hashOf = grown(this.#hashOf, index + 1);
      this.#cardStart = grown(this.#cardStart, index + 1);
      this.#cardCount = grown(this.#cardCount, index + 1);
    }
    this.#flags[index] = FILLED | (score.composite === undefined ? 0 : HAS_COMPOSITE);
    this.#versions[index] = score.version ?? Number.NaN;
    this.#composites[index] = score.composite ?? 0;
    this.#seats[index] = score.seats === undefined ? 0 : score.seats + 1;
    this.#hashOf[index] = this.#hashes.number(score.hash ?? null);
    if (score.gates.length > 0) this.#gates.set(index, score.gates);
    else this.#gates.delete(index);
    if (score.cards !== undefined) this.#cardStart[index] = this.#store.addRun(runId, score.cards);
    this.#cardCount[index] = score.cards === undefined ? 0 : score.cards.length + 1;
  }

  /** The score set at `index` (a new object each call); undefined when none was. */
  get(index: number): SlotScore | undefined {
    const flags = this.#flags[index] ?? 0;
    if ((flags & FILLED) === 0) return undefined;
    const version = this.#versions[index] as number;
    const seats = (this.#seats[index] as number) - 1;
    const hash = this.#hashes.key(this.#hashOf[index] as number);
    const cardCount = (this.#cardCount[index] as number) - 1;
    const cards = cardCount < 0 ? undefined : this.#store.cards(this.#cardStart[index] as number, cardCount);
    return {
      version: Number.isNaN(version) ? undefined : version,
      gates: this.#gates.get(index) ?? NO_GATES,
      composite: (flags & HAS_COMPOSITE) === 0 ? undefined : (this.#composites[index] as number),
      ...(seats < 0 ? {} : { seats }),
      ...(hash === null ? {} : { hash }),
      ...(cards === undefined ? {} : { cards }),
    };
  }
}
