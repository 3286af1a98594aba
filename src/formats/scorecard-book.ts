import type { SeatScore } from "./seat-score.js";
import { TraitTable } from "./trait-table.js";
import type { SeatTraits, TraitTableData } from "./trait-table.js";

/**
 * One valid scorecard, reduced to what selection and gating read: run, seat (by agent key: spec 2.7 gives a
 * card no seat index), the scorecard version it describes (null: a bare card, version unknown) and its
 * score. Gating is not here: it reads cards this book leaves out (src/formats/gate-book.ts). A plain tuple,
 * so the parallel engine hands the book to its workers as it is (with its trait means: `ScoreBook.data`).
 */
export type ScoreEntry = readonly [runId: string, agentKeyId: string | null, version: number | null, composite: number | null, objectiveRate: number];

/** A card's score: the composite and objective rate selection reads, and the per-trait means the stats count. */
export interface CardScore extends SeatScore {
  readonly composite: number | null;
  readonly objectiveRate: number;
  readonly traits: SeatTraits;
}

/** A book as it crosses to a worker: its entries, and its cards' per-trait means in entry order. */
export interface ScoreBookData {
  readonly entries: readonly ScoreEntry[];
  readonly traits: TraitTableData;
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
 */
export class ScoreBook {
  readonly #entries: readonly ScoreEntry[];
  readonly #traits: TraitTable;
  /** Entry indices by run; a seat's are its run's with its key (a run has a few cards: no seat-key strings kept). */
  readonly #byRun = new Map<string, number[]>();

  /** `traits`: entry i's per-trait means at i (trimmed to size here: the book is held all night). */
  constructor(entries: readonly ScoreEntry[], traits: TraitTable | TraitTableData) {
    const table = traits instanceof TraitTable ? TraitTable.of(traits.toData()) : TraitTable.of(traits);
    if (table.size !== entries.length) throw new Error(`Internal error: ${entries.length} scorecards, ${table.size} cards' traits`);
    this.#entries = entries;
    this.#traits = table;
    for (const [index, entry] of entries.entries()) push(this.#byRun, entry[0], index);
  }

  static of(data: ScoreBookData): ScoreBook {
    return new ScoreBook(data.entries, data.traits);
  }

  get entries(): readonly ScoreEntry[] {
    return this.#entries;
  }

  /** What a worker rebuilds the book from (`ScoreBook.of`). */
  get data(): ScoreBookData {
    return { entries: this.#entries, traits: this.#traits.toData() };
  }

  get size(): number {
    return this.#entries.length;
  }

  /**
   * The seat's card for the record's version. Several `aic` cards of one run share the key null: their
   * scores are not told apart.
   */
  seat(ref: SeatRef): CardScore | undefined {
    const cards = (this.#byRun.get(ref.runId) ?? []).filter((i) => (this.#entries[i] as ScoreEntry)[1] === ref.agentKeyId);
    const version = (i: number) => (this.#entries[i] as ScoreEntry)[2];
    const exact = cards.find((i) => version(i) !== null && version(i) === ref.version);
    const index = exact ?? cards.find((i) => version(i) === null);
    if (index === undefined) return undefined;
    const first = this.#entries[index] as ScoreEntry;
    return { composite: first[3], objectiveRate: first[4], traits: this.#traits.seat(index) };
  }

  /**
   * A run's score where a record names no seat (DPO): the mean over its agent seats' cards of the run's
   * latest known version (all cards where none has a key); each trait's mean likewise, over the seats that
   * have it.
   */
  run(runId: string): CardScore | undefined {
    const indices = this.#byRun.get(runId) ?? [];
    if (indices.length === 0) return undefined;
    const cards = indices.map((i) => this.#entries[i] as ScoreEntry);
    const latest = Math.max(...cards.map((c) => c[2] ?? 0));
    const current = indices.filter((_, k) => ((cards[k] as ScoreEntry)[2] ?? 0) === latest);
    const agents = current.filter((i) => (this.#entries[i] as ScoreEntry)[1] !== null);
    const seats = (agents.length > 0 ? agents : current).map((i) => [i, this.#entries[i] as ScoreEntry] as const);
    const composites = seats.map(([, c]) => c[3]).filter((x): x is number => x !== null);
    return {
      composite: composites.length === 0 ? null : composites.reduce((s, x) => s + x, 0) / composites.length,
      objectiveRate: seats.reduce((s, [, c]) => s + c[4], 0) / seats.length,
      traits: this.#traits.mean(seats.map(([i]) => i)),
    };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
