import { IdIndex } from "../core/id-index.js";
import type { SeatGate } from "../formats/gate-book.js";
import type { RunCard } from "../formats/scorecard-book.js";
import { ScoreBookWriter } from "../formats/score-book-writer.js";
import { RunScores, type ColumnScore, type SlotScore } from "./run-scores.js";

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

/**
 * A score cache (run id to {@link CachedScore}) as a ReadonlyMap whose entries live off the JS heap: ids in
 * an {@link IdIndex}, scores in {@link RunScores}. A 100,000-run world's cache, read in and written out by
 * every night, was two Maps of 100,000 strings and objects. Entries iterate in the order first set, as a
 * Map's do; an entry is never removed, so every id the index holds has an entry. `get` makes a new object
 * each call.
 */
export class ScoreTable implements ReadonlyMap<string, CachedScore> {
  readonly #ids = new IdIndex();
  readonly #scores: RunScores;

  /** `book`: where the entries' cards are kept (a pull's book, so a card is held once); by default the table's own. */
  constructor(book?: ScoreBookWriter) {
    this.#scores = new RunScores(1024, book ?? new ScoreBookWriter(this.#ids));
  }

  get size(): number {
    return this.#ids.size;
  }

  /** Sets a run's entry: a score at the version it describes. */
  set(runId: string, score: ColumnScore & { readonly version: number }): this {
    this.#scores.set(this.#ids.add(runId), runId, score);
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
    // Every entry was set with its version (a CachedScore's is never unknown).
    const { version, composite, ...score } = this.#scores.get(index) as SlotScore;
    return { version: version as number, ...score, ...(composite === undefined ? {} : { composite }) };
  }
}
