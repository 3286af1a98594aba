import type { SeatScore } from "./seat-score.js";

/**
 * One valid scorecard, reduced to what selection and gating read: run, seat (by agent key: spec 2.7 gives a
 * card no seat index), the scorecard version it describes (null: a bare card, version unknown) and its
 * score. Gating is not here: it reads cards this book leaves out (src/formats/gate-book.ts). A plain tuple,
 * so the parallel engine hands the book to its workers as it is.
 */
export type ScoreEntry = readonly [runId: string, agentKeyId: string | null, version: number | null, composite: number | null, objectiveRate: number];

/** A card's score: the composite and objective rate selection reads. */
export interface CardScore extends SeatScore {
  readonly composite: number | null;
  readonly objectiveRate: number;
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
  readonly #bySeat = new Map<string, ScoreEntry[]>();
  readonly #byRun = new Map<string, ScoreEntry[]>();

  constructor(entries: readonly ScoreEntry[]) {
    this.#entries = entries;
    for (const entry of entries) {
      push(this.#bySeat, seatKey(entry[0], entry[1]), entry);
      push(this.#byRun, entry[0], entry);
    }
  }

  get entries(): readonly ScoreEntry[] {
    return this.#entries;
  }

  get size(): number {
    return this.#entries.length;
  }

  /**
   * The seat's card for the record's version. Several `aic` cards of one run share the key null: their
   * scores are not told apart.
   */
  seat(ref: SeatRef): CardScore | undefined {
    const cards = this.#bySeat.get(seatKey(ref.runId, ref.agentKeyId)) ?? [];
    const exact = cards.filter((c) => c[2] !== null && c[2] === ref.version);
    const chosen = exact.length > 0 ? exact : cards.filter((c) => c[2] === null);
    const first = chosen[0];
    if (first === undefined) return undefined;
    return { composite: first[3], objectiveRate: first[4] };
  }

  /**
   * A run's score where a record names no seat (DPO): the mean over its agent seats' cards of the run's
   * latest known version (all cards where none has a key).
   */
  run(runId: string): CardScore | undefined {
    const cards = this.#byRun.get(runId) ?? [];
    if (cards.length === 0) return undefined;
    const latest = Math.max(...cards.map((c) => c[2] ?? 0));
    const current = cards.filter((c) => (c[2] ?? 0) === latest);
    const agents = current.filter((c) => c[1] !== null);
    const seats = agents.length > 0 ? agents : current;
    const composites = seats.map((c) => c[3]).filter((x): x is number => x !== null);
    return {
      composite: composites.length === 0 ? null : composites.reduce((s, x) => s + x, 0) / composites.length,
      objectiveRate: seats.reduce((s, c) => s + c[4], 0) / seats.length,
    };
  }
}

function seatKey(runId: string, agentKeyId: string | null): string {
  return JSON.stringify([runId, agentKeyId]);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
