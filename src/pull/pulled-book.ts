import type { ScoreBook } from "../formats/scorecard-book.js";
import { ScoreBookWriter } from "../formats/score-book-writer.js";
import type { RunCard } from "./card-store.js";

/**
 * The score book of an RL or DPO pull (issue 36): each scored run's valid cards, fetched or from the cache, as
 * the entries `--scorecards` gives convert, so selection and the stats read a pull's seats by the same rules
 * (`ScoreBook.seat`, and a DPO pair's chosen run by `ScoreBook.run`). A card's version is left unknown (null):
 * the one body a pull takes for a run is pinned to the version its records carry.
 */
export class PulledBook {
  readonly #book = new ScoreBookWriter();

  add(runId: string, cards: readonly RunCard[]): void {
    for (const card of cards) this.#book.add([runId, card.agentKeyId, null, card.composite, card.objectiveRate], card.traits);
  }

  book(): ScoreBook {
    return this.#book.book();
  }
}
