import { grown } from "../core/grown.js";
import { IdIndex } from "../core/id-index.js";
import type { SeatGate } from "../formats/gate-book.js";
import { CardRanges, type RunCard } from "./card-store.js";

/**
 * A run's score at one scorecard version. A version is immutable (rescoring makes a new one), so an
 * entry stays true for as long as the run's records carry that version.
 */
export interface CachedScore {
  readonly version: number;
  /** The run's cards that are not open (gate-book.ts): empty for nearly every run. */
  readonly gates: readonly SeatGate[];
  readonly composite?: number;
  /** The run's seats, as its run document listed them (owner routes), when known. */
  readonly seats?: number;
  /** The run document's `manifest.scenario_version_hash` (owner routes), when known: decontamination reads it. */
  readonly hash?: string;
  /** RL and DPO: the run's valid cards, each seat's scores (the stats and selection read them on a later night too). */
  readonly cards?: readonly RunCard[];
}

/** Cached scores by run id. */
export type ScoreCache = ReadonlyMap<string, CachedScore>;

/** What a pull needs from a run's scorecards (spec 2.7). */
export interface RunScore {
  /** Its cards that are not open (gated, or unreadable), by seat: the one gating rule reads them (gate-book.ts). */
  readonly gates: readonly SeatGate[];
  /** Seats of the run, as its run document lists them (`manifest.seat_snapshots`, owner routes); undefined when the body has none. */
  readonly seats?: number | undefined;
  /** The run document's `manifest.scenario_version_hash` (owner routes); undefined when the body has none. */
  readonly hash?: string | undefined;
  /**
   * Mean of `traits.per_trait[*].mean` over the agent seats' scorecards (safety traits are not part of
   * the composite): the key's one seat on agent routes; on owner routes every seat with an
   * `agent_key_id`, averaged (all seats if none has one). Undefined when no trait has a mean.
   */
  readonly composite: number | undefined;
  /** RL and DPO: the valid cards of its body, each seat's scores (spec 2.7, as a scorecards file's are read). */
  readonly cards?: readonly RunCard[] | undefined;
}

/** A run's score, and the version the cache left for the next pull holds for it (undefined: none). */
export interface ScoredRun extends RunScore {
  readonly cachedVersion: number | undefined;
}

const HAS_COMPOSITE = 2;
const NO_GATES: readonly SeatGate[] = [];

/**
 * A score cache (run id to {@link CachedScore}) as a ReadonlyMap whose entries live off the JS heap: ids in
 * an {@link IdIndex}, version, flags and composite in typed arrays, each seat's card in a CardStore. A 100,000-run world's cache, read in
 * and written out by every night, was two Maps of 100,000 strings and objects (docs/decisions.md, "Nightly
 * pull memory: per-run state off the heap"). The few runs with a card that is not open keep their gates in a Map. Entries iterate in the order first set, as a Map's do; an
 * entry is never removed, so every id the index holds has an entry. `get` makes a new object each call.
 */
export class ScoreTable implements ReadonlyMap<string, CachedScore> {
  readonly #ids = new IdIndex();
  #versions = new Float64Array(1024);
  #composites = new Float64Array(1024);
  #flags = new Uint8Array(1024);
  readonly #gates = new Map<number, readonly SeatGate[]>();
  /** Seats + 1; 0 where unknown. */
  #seats = new Uint32Array(1024);
  /** Scenario hash number + 1 in `#hashes` (a world has few scenarios); 0 where unknown. */
  #hashOf = new Uint32Array(1024);
  readonly #hashes = new HashNumbers();
  readonly #cards = new CardRanges();

  get size(): number {
    return this.#ids.size;
  }

  set(runId: string, score: CachedScore): this {
    const index = this.#ids.add(runId);
    if (index >= this.#flags.length) {
      this.#versions = grown(this.#versions, index + 1);
      this.#composites = grown(this.#composites, index + 1);
      this.#flags = grown(this.#flags, index + 1);
      this.#seats = grown(this.#seats, index + 1);
      this.#hashOf = grown(this.#hashOf, index + 1);
    }
    this.#versions[index] = score.version;
    this.#composites[index] = score.composite ?? 0;
    this.#flags[index] = score.composite === undefined ? 0 : HAS_COMPOSITE;
    if (score.gates.length > 0) this.#gates.set(index, score.gates);
    else this.#gates.delete(index);
    this.#seats[index] = score.seats === undefined ? 0 : score.seats + 1;
    this.#hashOf[index] = this.#hashes.number(score.hash);
    this.#cards.set(index, score.cards);
    return this;
  }

  get(runId: string): CachedScore | undefined {
    const index = this.#ids.indexOf(runId);
    return index < 0 ? undefined : this.#at(index);
  }

  has(runId: string): boolean {
    return this.#ids.indexOf(runId) >= 0;
  }

  forEach(fn: (value: CachedScore, key: string, map: ReadonlyMap<string, CachedScore>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) fn.call(thisArg, value, key, this);
  }

  *entries(): IterableIterator<[string, CachedScore]> {
    for (let i = 0; i < this.#ids.size; i++) yield [this.#ids.id(i), this.#at(i)];
  }

  *keys(): IterableIterator<string> {
    for (let i = 0; i < this.#ids.size; i++) yield this.#ids.id(i);
  }

  *values(): IterableIterator<CachedScore> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, CachedScore]> {
    return this.entries();
  }

  #at(index: number): CachedScore {
    const flags = this.#flags[index] as number;
    const seats = (this.#seats[index] as number) - 1;
    const hash = this.#hashes.hash(this.#hashOf[index] as number);
    const cards = this.#cards.get(index);
    const base = { version: this.#versions[index] as number, gates: this.#gates.get(index) ?? NO_GATES, ...(seats < 0 ? {} : { seats }), ...(hash === undefined ? {} : { hash }), ...(cards === undefined ? {} : { cards }) };
    return (flags & HAS_COMPOSITE) === 0 ? base : { ...base, composite: this.#composites[index] as number };
  }
}

/** Distinct scenario hashes numbered from 1 (0: none), so per-run tables hold a number, not a string. */
export class HashNumbers {
  readonly #list: string[] = [];
  readonly #numbers = new Map<string, number>();

  number(hash: string | undefined): number {
    if (hash === undefined) return 0;
    let n = this.#numbers.get(hash);
    if (n === undefined) {
      this.#list.push(hash);
      n = this.#list.length;
      this.#numbers.set(hash, n);
    }
    return n;
  }

  hash(n: number): string | undefined {
    return n === 0 ? undefined : this.#list[n - 1];
  }
}
