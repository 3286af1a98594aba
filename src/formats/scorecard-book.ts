import type { SeatScore } from "./seat-score.js";
import { IdIndex } from "../core/id-index.js";
import { InternedKeys } from "../core/interned-keys.js";
import type { IdIndexData } from "../core/id-index.js";
import { TraitTable } from "./trait-table.js";
import type { SeatTraits, TraitTableData } from "./trait-table.js";

/**
 * One valid scorecard, reduced to what selection and gating read: run, seat (by agent key: spec 2.7 gives a
 * card no seat index), the scorecard version it describes (null: a bare card, version unknown) and its
 * score. Gating is not here: it reads cards this book leaves out (src/formats/gate-book.ts). As a tuple it is what a
 * `ScoreBookWriter` is given and what `ScoreBook.entries` lists; the book itself keeps columns.
 */
export type ScoreEntry = readonly [runId: string, agentKeyId: string | null, version: number | null, composite: number | null, objectiveRate: number];

/** A card's score: the composite and objective rate selection reads, and the per-trait means the stats count. */
export interface CardScore extends SeatScore {
  readonly composite: number | null;
  readonly objectiveRate: number;
  readonly traits: SeatTraits;
}

/** One valid card of a pulled run: its seat's key (null: an `aic` seat) and its score. */
export interface RunCard extends CardScore {
  readonly agentKeyId: string | null;
}

/** A book as it crosses to a worker: its columns, card i at index i (what `ScoreBookWriter` fills). */
export interface ScoreBookData {
  /** The cards' run ids, numbered. */
  readonly runs: IdIndexData;
  /** The cards' agent keys, each once. */
  readonly keys: readonly string[];
  /** Per card: its run's number in `runs`. */
  readonly runOf: Uint32Array;
  /** Per card: its key's index in `keys` + 1; 0: null (an `aic` seat). As narrow as the keys allow (a world has a few). */
  readonly keyOf: Uint8Array | Uint16Array | Uint32Array;
  /** Per card: its scorecard version, NaN: unknown. */
  readonly versions: Float64Array;
  /** Per card: its composite, NaN: null. */
  readonly composites: Float64Array;
  readonly objectiveRates: Float64Array;
  /** Per card: its per-trait means. */
  readonly traits: TraitTableData;
}

/** A book's columns as its writer hands them over (its run ids and traits not copied). */
export interface ScoreColumns extends Omit<ScoreBookData, "runs" | "traits"> {
  readonly runs: IdIndex;
  readonly traits: TraitTable;
}

/** The seat a record is about: its run, agent key (null: an `aic` seat) and scorecard version. */
export interface SeatRef {
  readonly runId: string;
  readonly agentKeyId: string | null;
  readonly version: number | null;
}

/**
 * Scorecards by run and seat. A card describes one scorecard version of its run (a rescore makes a new
 * one, spec 3): a record is judged by the card of its own `scorecard_version`, or by a card whose version
 * is unknown (a bare card outside a `{scorecards, versions}` response); a card of another version is
 * never used for it.
 *
 * Held all night (a 100k-run RL pull has 300k seats): columns of typed arrays, run ids off the heap in an
 * `IdIndex`, keys interned, and a run's cards found through `#first`/`#order`, so a seat is no object,
 * tuple or string (docs/decisions.md, "A score book in typed columns").
 */
export class ScoreBook {
  /** The columns but `runOf`, which `#first`/`#order` say again, and `keys`, which `#keys` holds. */
  readonly #c: Omit<ScoreColumns, "runOf" | "keys">;
  /** Runs the book knows (its id index may be shared with a writer that goes on adding). */
  readonly #runCount: number;
  readonly #keys: InternedKeys;
  /** Run r's cards are `#order[#first[r] .. #first[r + 1])`, in card order. */
  readonly #first: Uint32Array;
  readonly #order: Uint32Array;

  constructor(columns: ScoreColumns) {
    const size = columns.runOf.length;
    if (columns.traits.size !== size) throw new Error(`Internal error: ${size} scorecards, ${columns.traits.size} cards' traits`);
    const { runOf: _, keys, ...kept } = columns;
    this.#c = kept;
    this.#runCount = columns.runs.size;
    this.#keys = InternedKeys.of(keys);
    const first = new Uint32Array(this.#runCount + 1);
    for (let i = 0; i < size; i++) {
      const run = columns.runOf[i] as number;
      first[run + 1] = (first[run + 1] as number) + 1;
    }
    for (let r = 0; r < this.#runCount; r++) first[r + 1] = (first[r + 1] as number) + (first[r] as number);
    const order = new Uint32Array(size);
    const next = first.slice(0, this.#runCount);
    for (let i = 0; i < size; i++) {
      const run = columns.runOf[i] as number;
      order[next[run] as number] = i;
      next[run] = (next[run] as number) + 1;
    }
    this.#first = first;
    this.#order = order;
  }

  static of(data: ScoreBookData): ScoreBook {
    return new ScoreBook({ ...data, runs: IdIndex.of(data.runs), traits: TraitTable.of(data.traits) });
  }

  /** Each card as a tuple (new ones each call: for inspection, not for a night's reads). */
  get entries(): readonly ScoreEntry[] {
    const c = this.#c;
    const runOf = this.#runOf();
    return Array.from({ length: this.size }, (_, i): ScoreEntry => [c.runs.id(runOf[i] as number), this.#key(i), nullIfNaN(c.versions[i] as number), nullIfNaN(c.composites[i] as number), c.objectiveRates[i] as number]);
  }

  /** What a worker rebuilds the book from (`ScoreBook.of`). */
  get data(): ScoreBookData {
    const { runs, traits, ...columns } = this.#c;
    return { ...columns, runs: runs.toData(), keys: [...this.#keys.list], runOf: this.#runOf(), traits: traits.toData() };
  }

  get size(): number {
    return this.#order.length;
  }

  /**
   * The seat's card for the record's version. Several `aic` cards of one run share the key null: their
   * scores are not told apart.
   */
  seat(ref: SeatRef): CardScore | undefined {
    const key = this.#keys.numberOf(ref.agentKeyId);
    if (key === undefined) return undefined;
    const c = this.#c;
    let unknown: number | undefined;
    for (const i of this.#cardsOf(ref.runId)) {
      if (c.keyOf[i] !== key) continue;
      const version = c.versions[i] as number;
      if (version === ref.version) return cardScoreAt(c, i);
      if (Number.isNaN(version)) unknown ??= i;
    }
    return unknown === undefined ? undefined : cardScoreAt(c, unknown);
  }

  /**
   * A run's score where a record names no seat (DPO): the mean over its agent seats' cards of the run's
   * latest known version (all cards where none has a key); each trait's mean likewise, over the seats that
   * have it.
   */
  run(runId: string): CardScore | undefined {
    const indices = this.#cardsOf(runId);
    if (indices.length === 0) return undefined;
    const c = this.#c;
    const versionOf = (i: number) => (Number.isNaN(c.versions[i]) ? 0 : (c.versions[i] as number));
    const latest = Math.max(...Array.from(indices, versionOf));
    const current = Array.from(indices).filter((i) => versionOf(i) === latest);
    const agents = current.filter((i) => c.keyOf[i] !== 0);
    const seats = agents.length > 0 ? agents : current;
    const composites = seats.map((i) => c.composites[i] as number).filter((x) => !Number.isNaN(x));
    return {
      composite: composites.length === 0 ? null : composites.reduce((s, x) => s + x, 0) / composites.length,
      objectiveRate: seats.reduce((s, i) => s + (c.objectiveRates[i] as number), 0) / seats.length,
      traits: c.traits.mean(seats),
    };
  }

  /** The run's card indices, in card order (a view). */
  #cardsOf(runId: string): Uint32Array {
    const run = this.#c.runs.indexOf(runId);
    if (run < 0 || run >= this.#runCount) return this.#order.subarray(0, 0);
    return this.#order.subarray(this.#first[run] as number, this.#first[run + 1] as number);
  }

  /** Each card's run number, from `#first`/`#order`. */
  #runOf(): Uint32Array {
    const runOf = new Uint32Array(this.size);
    for (let r = 0; r < this.#runCount; r++) for (let k = this.#first[r] as number; k < (this.#first[r + 1] as number); k++) runOf[this.#order[k] as number] = r;
    return runOf;
  }

  #key(i: number): string | null {
    return this.#keys.key(this.#c.keyOf[i] as number);
  }
}

/** Card `i`'s score in a book's columns, or a writer's (its means a view on the table). */
export function cardScoreAt(c: Pick<ScoreColumns, "composites" | "objectiveRates" | "traits">, i: number): CardScore {
  return { composite: nullIfNaN(c.composites[i] as number), objectiveRate: c.objectiveRates[i] as number, traits: c.traits.seat(i) };
}

function nullIfNaN(x: number): number | null {
  return Number.isNaN(x) ? null : x;
}
