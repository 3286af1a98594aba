import { ScoreBook } from "../formats/scorecard-book.js";
import type { ScoreEntry } from "../formats/scorecard-book.js";
import { TraitTable } from "../formats/trait-table.js";
import type { RunCard } from "./card-store.js";

/**
 * The score book of an RL or DPO pull (issue 36): each scored run's valid cards, fetched or from the cache, as
 * the entries `--scorecards` gives convert, so selection and the stats read a pull's seats by the same rules
 * (`ScoreBook.seat`, and a DPO pair's chosen run by `ScoreBook.run`). A card's version is left unknown (null):
 * the one body a pull takes for a run is pinned to the version its records carry.
 */
export class PulledBook {
  readonly #entries: ScoreEntry[] = [];
  readonly #traits = new TraitTable();

  add(runId: string, cards: readonly RunCard[]): void {
    for (const card of cards) {
      this.#entries.push([runId, card.agentKeyId, null, card.composite, card.objectiveRate]);
      this.#traits.addSeat(card.traits);
    }
  }

  book(): ScoreBook {
    return new ScoreBook(this.#entries, this.#traits);
  }
}
