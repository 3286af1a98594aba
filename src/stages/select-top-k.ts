import { beatsWinner } from "../core/dedup-rule.js";

/** A seat that competes for its scenario's top k: its record key, scenario and composite. */
export interface RankedSeat {
  readonly key: string;
  readonly campaignId: string;
  readonly composite: number;
}

/**
 * Each record key's winning copy, in read order: the copy with the highest scorecard version, the first of
 * equals, as dedup's rule decides. `value` is asked only of a copy that wins so far.
 */
export class WinningCopies<T> {
  readonly #best = new Map<string, { readonly version: number; readonly value: T }>();

  note(key: string, version: number, value: () => T): void {
    const held = this.#best.get(key);
    if (held !== undefined && !beatsWinner(version, held.version)) return;
    this.#best.set(key, { version, value: value() });
  }

  *values(): IterableIterator<T> {
    for (const { value } of this.#best.values()) yield value;
  }
}

/**
 * The keys among the `k` best of their scenario (`campaign_id`) by composite, highest first; equal
 * composites by key in code-unit order, so the choice is the same on every run, machine and worker count.
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
