import { grown } from "../core/grown.js";
import { TraitTable } from "../formats/trait-table.js";
import type { SeatTraits } from "../formats/trait-table.js";
import { InternedKeys } from "../core/interned-keys.js";

/** One valid scorecard of a pulled run: its seat's key (null: an `aic` seat) and the scores the stats and selection read. */
export interface RunCard {
  readonly agentKeyId: string | null;
  readonly composite: number | null;
  readonly objectiveRate: number;
  readonly traits: SeatTraits;
}

/**
 * Pulled runs' cards, appended run by run and read back by range: keys interned (a world has few), scores and
 * per-trait means in typed arrays (a {@link TraitTable}), so a night's 100,000 runs' seats are no objects.
 * A pull holds two (the night's scores and the cache it leaves), read and written every night.
 */
export class CardStore {
  readonly #keys = new InternedKeys();
  /** Each card's key number in `#keys` (0: null). */
  #keyOf = new Uint32Array(256);
  /** NaN: null. */
  #composites = new Float64Array(256);
  #objective = new Float64Array(256);
  readonly #traits = new TraitTable();
  #size = 0;

  /** Appends `cards`; returns where they start. */
  add(cards: readonly RunCard[]): number {
    const start = this.#size;
    const need = start + cards.length;
    if (need > this.#keyOf.length) {
      this.#keyOf = grown(this.#keyOf, need);
      this.#composites = grown(this.#composites, need);
      this.#objective = grown(this.#objective, need);
    }
    for (const [i, card] of cards.entries()) {
      this.#keyOf[start + i] = this.#keys.number(card.agentKeyId);
      this.#composites[start + i] = card.composite ?? Number.NaN;
      this.#objective[start + i] = card.objectiveRate;
      this.#traits.addSeat(card.traits);
    }
    this.#size = need;
    return start;
  }

  /** The `count` cards from `start` (new objects; their means are views on the store). */
  cards(start: number, count: number): RunCard[] {
    const out: RunCard[] = [];
    for (let i = start; i < start + count; i++) {
      const key = this.#keyOf[i] as number;
      const composite = this.#composites[i] as number;
      out.push({ agentKeyId: this.#keys.key(key), composite: Number.isNaN(composite) ? null : composite, objectiveRate: this.#objective[i] as number, traits: this.#traits.seat(i) });
    }
    return out;
  }
}

/**
 * Where each slot's cards are in a {@link CardStore}: start and count + 1 per slot (0: the slot has no cards
 * known, which is not the same as a run with none valid).
 */
export class CardRanges {
  readonly #store = new CardStore();
  #starts: Uint32Array;
  #counts: Uint32Array;

  constructor(size = 1024) {
    this.#starts = new Uint32Array(size);
    this.#counts = new Uint32Array(size);
  }

  set(index: number, cards: readonly RunCard[] | undefined): void {
    if (index >= this.#counts.length) {
      this.#starts = grown(this.#starts, index + 1);
      this.#counts = grown(this.#counts, index + 1);
    }
    if (cards === undefined) {
      this.#counts[index] = 0;
      return;
    }
    this.#starts[index] = this.#store.add(cards);
    this.#counts[index] = cards.length + 1;
  }

  get(index: number): RunCard[] | undefined {
    const count = (this.#counts[index] ?? 0) - 1;
    return count < 0 ? undefined : this.#store.cards(this.#starts[index] as number, count);
  }
}
