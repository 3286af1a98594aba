import { grown } from "../core/grown.js";
import { IdIndex } from "../core/id-index.js";
import { cardScoreAt, ScoreBook } from "./scorecard-book.js";
import type { RunCard, ScoreEntry } from "./scorecard-book.js";
import { TraitTable } from "./trait-table.js";
import type { SeatTraits } from "./trait-table.js";
import { InternedKeys } from "../core/interned-keys.js";

/**
 * Scorecards appended card by card into typed columns and read back by range, so neither a {@link ScoreBook}
 * nor what fills it holds an object or a tuple per seat. The one store of a pull's cards: the score cache
 * keeps where each run's are (pull/run-scores.ts) and the night's book is this store's (issue 33).
 */
export class ScoreBookWriter {
  readonly #runs: IdIndex;
  readonly #keys = new InternedKeys();
  #runOf = new Uint32Array(256);
  /** Each card's key number in `#keys` (0: null). */
  #keyOf = new Uint32Array(256);
  /** NaN: null. */
  #versions = new Float64Array(256);
  /** NaN: null. */
  #composites = new Float64Array(256);
  #objectiveRates = new Float64Array(256);
  #traits = new TraitTable();
  #size = 0;

  /** `runs`: the run ids the cards' runs are numbered in (a score cache's own, so they are held once). */
  constructor(runs = new IdIndex()) {
    this.#runs = runs;
  }

  /** Appends the next card: its run, seat, version and score, and its per-trait means. */
  add([runId, agentKeyId, version, composite, objectiveRate]: ScoreEntry, traits: SeatTraits): void {
    const at = this.#size;
    if (at >= this.#runOf.length) {
      this.#runOf = grown(this.#runOf, at + 1);
      this.#keyOf = grown(this.#keyOf, at + 1);
      this.#versions = grown(this.#versions, at + 1);
      this.#composites = grown(this.#composites, at + 1);
      this.#objectiveRates = grown(this.#objectiveRates, at + 1);
    }
    this.#runOf[at] = this.#runs.add(runId);
    this.#keyOf[at] = this.#keys.number(agentKeyId);
    this.#versions[at] = version ?? Number.NaN;
    this.#composites[at] = composite ?? Number.NaN;
    this.#objectiveRates[at] = objectiveRate;
    this.#traits.addSeat(traits);
    this.#size = at + 1;
  }

  /**
   * Appends a pulled run's cards; returns where they start. Their version is left unknown (null): the one
   * body a pull takes for a run is pinned to the version its records carry.
   */
  addRun(runId: string, cards: readonly RunCard[]): number {
    const start = this.#size;
    for (const card of cards) this.add([runId, card.agentKeyId, null, card.composite, card.objectiveRate], card.traits);
    return start;
  }

  /** The `count` cards from `start` (new objects; their means are views on the store). */
  cards(start: number, count: number): RunCard[] {
    const columns = { composites: this.#composites, objectiveRates: this.#objectiveRates, traits: this.#traits };
    return Array.from({ length: count }, (_, k): RunCard => {
      const i = start + k;
      return { agentKeyId: this.#keys.key(this.#keyOf[i] as number), ...cardScoreAt(columns, i) };
    });
  }

  /**
   * The book of the cards added so far. Its columns are the store's, trimmed to size: a book is held all night,
   * and so is a pull's store (its score cache reads it). An add after this grows copies the book does not see.
   */
  book(): ScoreBook {
    const size = this.#size;
    this.#runOf = this.#runOf.slice(0, size);
    this.#versions = this.#versions.slice(0, size);
    this.#composites = this.#composites.slice(0, size);
    this.#objectiveRates = this.#objectiveRates.slice(0, size);
    const traits = this.#traits.toData();
    this.#traits = TraitTable.of(traits);
    return new ScoreBook({
      runs: this.#runs,
      keys: [...this.#keys.list],
      runOf: this.#runOf,
      keyOf: narrowed(this.#keyOf.subarray(0, size), this.#keys.list.length),
      versions: this.#versions,
      composites: this.#composites,
      objectiveRates: this.#objectiveRates,
      traits: TraitTable.of(traits),
    });
  }
}

/** `numbers` (each at most `max`) in the narrowest unsigned typed array that holds them. */
function narrowed(numbers: Uint32Array, max: number): Uint8Array | Uint16Array | Uint32Array {
  if (max <= 0xff) return Uint8Array.from(numbers);
  return max <= 0xffff ? Uint16Array.from(numbers) : numbers.slice();
}
