import type { DropReason, FilterRule } from "../reasons.js";
import type { Tally } from "../tally.js";

/** One valid record of a unit, in read order. */
export interface ValidEntry {
  readonly key: string;
  readonly version: number;
  /** Set when a filter rule drops it; otherwise it was shredded as a row. */
  readonly rule: FilterRule | null;
}

interface Winner {
  version: number;
  ordinal: number;
  /** How the winner was counted once its unit was decided; null until then. */
  counted: "kept" | FilterRule | null;
  /** Copies counted as `duplicate` of this winner: they turn `superseded` if a higher version comes. */
  duplicates: number;
}

/**
 * The dedup stage for a stream decided a unit at a time, in read order: the highest scorecard version
 * wins, and the first copy among equals — the rule of `DedupIndex`, learned as the input goes by.
 *
 * A later copy with a higher version can beat a winner whose unit is already decided. Counts are then
 * corrected; if that winner was already written, `rewriteNeeded` is set and the run must be repeated with
 * `final()` decisions, which know every winner from the first run.
 */
export class DedupDecider {
  readonly #winners = new Map<string, Winner>();
  #ordinal = 0;
  #final = false;
  rewriteNeeded = false;

  constructor(readonly tally: Tally) {}

  /** Decides a unit's valid records (counting them); returns for each whether it stays. */
  decide(entries: readonly ValidEntry[]): boolean[] {
    const first = this.#ordinal;
    this.#ordinal += entries.length;
    if (!this.#final) this.#learn(entries, first);
    return entries.map((e, i) => {
      const w = this.#winners.get(e.key) as Winner;
      let outcome: "kept" | DropReason;
      if (w.ordinal === first + i) {
        outcome = e.rule ?? "kept";
        w.counted = e.rule ?? "kept";
      } else if (e.version < w.version) {
        outcome = "superseded";
      } else {
        outcome = "duplicate";
        w.duplicates++;
      }
      this.tally.decided(outcome);
      return outcome === "kept";
    });
  }

  /** Starts over with every winner known: decisions can no longer change after the fact. */
  final(tally: Tally): DedupDecider {
    const next = new DedupDecider(tally);
    for (const [key, w] of this.#winners) next.#winners.set(key, { version: w.version, ordinal: w.ordinal, counted: null, duplicates: 0 });
    next.#final = true;
    return next;
  }

  #learn(entries: readonly ValidEntry[], first: number): void {
    entries.forEach((e, i) => {
      const w = this.#winners.get(e.key);
      if (w === undefined) {
        this.#winners.set(e.key, { version: e.version, ordinal: first + i, counted: null, duplicates: 0 });
        return;
      }
      if (e.version <= w.version) return;
      if (w.counted !== null) {
        this.tally.reclassify(w.counted, "superseded");
        if (w.counted === "kept") this.rewriteNeeded = true;
      }
      this.tally.reclassify("duplicate", "superseded", w.duplicates);
      this.#winners.set(e.key, { version: e.version, ordinal: first + i, counted: null, duplicates: 0 });
    });
  }
}
