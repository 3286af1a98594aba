import { grown } from "../core/grown.js";
import { IdIndex } from "../core/id-index.js";
import { ScoreBook } from "./scorecard-book.js";
import type { ScoreEntry } from "./scorecard-book.js";
import { TraitTable } from "./trait-table.js";
import type { SeatTraits } from "./trait-table.js";
import { InternedKeys } from "../core/interned-keys.js";

/**
 * Builds a {@link ScoreBook} card by card into typed columns, so neither the book nor what fills it (a pull's
 * whole night of cards) holds an object or a tuple per seat.
 */
export class ScoreBookWriter {
  readonly #runs = new IdIndex();
  readonly #keys = new InternedKeys();
  #runOf = new Uint32Array(256);
  /** Each card's key number in `#keys` (0: null). */
  #keyOf = new Uint32Array(256);
  /** NaN: null. */
  #versions = new Float64Array(256);
  /** NaN: null. */
  #composites = new Float64Array(256);
  #objectiveRates = new Float64Array(256);
  readonly #traits = new TraitTable();
  #size = 0;

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

  /** The book of the cards added so far (its columns trimmed to size: a book is held all night). */
  book(): ScoreBook {
    const size = this.#size;
    return new ScoreBook({
      runs: this.#runs,
      keys: [...this.#keys.list],
      runOf: this.#runOf.slice(0, size),
      keyOf: narrowed(this.#keyOf.subarray(0, size), this.#keys.list.length),
      versions: this.#versions.slice(0, size),
      composites: this.#composites.slice(0, size),
      objectiveRates: this.#objectiveRates.slice(0, size),
      traits: TraitTable.of(this.#traits.toData()),
    });
  }
}

/** `numbers` (each at most `max`) in the narrowest unsigned typed array that holds them. */
function narrowed(numbers: Uint32Array, max: number): Uint8Array | Uint16Array | Uint32Array {
  if (max <= 0xff) return Uint8Array.from(numbers);
  return max <= 0xffff ? Uint16Array.from(numbers) : numbers.slice();
}
