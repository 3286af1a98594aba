import type { Decision } from "../core/flow.js";
import type { RecordFacts } from "../formats/format.js";
import type { SeatScore } from "../formats/seat-score.js";

/** What the ranking keeps of a record key's winning copy: its facts and its score (for the filter and the thresholds). */
interface Candidate {
  readonly facts: RecordFacts;
  readonly score: SeatScore | null | undefined;
}

/** A seat that competes for its scenario's top k: its record key, scenario and composite. */
export interface RankedSeat {
  readonly key: string;
  readonly campaignId: string;
  readonly composite: number;
}

/**
 * Each record key's winning copy, in read order: the copy with the highest scorecard version, the first of
 * equals, as the dedup index decides. `value` is asked only of a copy that wins so far.
 */
export class WinningCopies<T> {
  readonly #best = new Map<string, { readonly version: number; readonly value: T }>();

  note(key: string, version: number, value: () => T): void {
    const held = this.#best.get(key);
    if (held !== undefined && held.version >= version) return;
    this.#best.set(key, { version, value: value() });
  }

  *values(): IterableIterator<T> {
    for (const { value } of this.#best.values()) yield value;
  }
}

/**
 * The keys among the `k` best of their scenario (`campaign_id`) by composite, highest first; equal
 * composites by key in code-unit order, so the choice is the same on every run, machine and engine.
 */
export function topKeysOf(seats: Iterable<RankedSeat>, k: number): Set<string> {
  const byScenario = new Map<string, RankedSeat[]>();
  for (const seat of seats) {
    const list = byScenario.get(seat.campaignId);
    if (list === undefined) byScenario.set(seat.campaignId, [seat]);
    else list.push(seat);
  }
  const top = new Set<string>();
  for (const list of byScenario.values()) {
    list.sort((a, b) => b.composite - a.composite || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { key } of list.slice(0, k)) top.add(key);
  }
  return top;
}

/**
 * `--top-k-per-scenario` without buffering records: the first read (the one that settles dedup) notes each
 * key's winning copy. Between the reads, `topKeys` ranks the candidates that every other rule keeps, scenario by
 * scenario; the second read drops the rest as `not_top_k`. Memory: one small entry per record key (facts and
 * two numbers), the same order as the dedup index, never a record (docs/decisions.md). The parallel engine
 * ranks with the same {@link WinningCopies} and {@link topKeysOf}, from what its workers report.
 */
export class TopKRanking {
  readonly #best = new WinningCopies<Candidate>();

  note(facts: RecordFacts, score: () => SeatScore | null | undefined): void {
    this.#best.note(facts.key, facts.scorecardVersion ?? 0, () => ({ facts, score: score() }));
  }

  /**
   * The keys among the `k` best of their scenario ({@link topKeysOf}). Only keys `rule` keeps compete (a
   * flagged or gated seat takes no place), and only with a composite.
   */
  topKeys(k: number, rule: (facts: RecordFacts, score: () => SeatScore | null | undefined) => Decision): Set<string> {
    const seats: RankedSeat[] = [];
    for (const { facts, score } of this.#best.values()) {
      const composite = score?.composite;
      if (composite === null || composite === undefined || rule(facts, () => score) !== "keep") continue;
      seats.push({ key: facts.key, campaignId: facts.campaignId, composite });
    }
    return topKeysOf(seats, k);
  }
}
