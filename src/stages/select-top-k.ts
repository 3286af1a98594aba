import type { Decision } from "../core/flow.js";
import type { RecordFacts } from "../formats/format.js";
import type { SeatScore } from "../formats/seat-score.js";

/** What the ranking keeps of a record key's winning copy: its facts and its score (for the filter and the thresholds). */
interface Candidate {
  readonly facts: RecordFacts;
  readonly score: SeatScore | null | undefined;
}

/**
 * `--top-k-per-scenario` without buffering records: the first read (the one that settles dedup) notes each
 * key's winning copy, the copy with the highest scorecard version, the first of equals, as the dedup index
 * decides. Between the reads, `topKeys` ranks the candidates that every other rule keeps, scenario by
 * scenario; the second read drops the rest as `not_top_k`. Memory: one small entry per record key (facts and
 * two numbers), the same order as the dedup index, never a record (docs/decisions.md).
 */
export class TopKRanking {
  readonly #best = new Map<string, Candidate>();

  note(facts: RecordFacts, score: () => SeatScore | null | undefined): void {
    const held = this.#best.get(facts.key);
    if (held !== undefined && (held.facts.scorecardVersion ?? 0) >= (facts.scorecardVersion ?? 0)) return;
    this.#best.set(facts.key, { facts, score: score() });
  }

  /**
   * The keys among the `k` best of their scenario (`campaign_id`) by composite, highest first; equal
   * composites by key in code-unit order, so the choice is the same on every run and machine. Only keys
   * `rule` keeps compete (a flagged or gated seat takes no place), and only with a composite.
   */
  topKeys(k: number, rule: (facts: RecordFacts, score: () => SeatScore | null | undefined) => Decision): Set<string> {
    const byScenario = new Map<string, { key: string; composite: number }[]>();
    for (const { facts, score } of this.#best.values()) {
      const composite = score?.composite;
      if (composite === null || composite === undefined || rule(facts, () => score) !== "keep") continue;
      const list = byScenario.get(facts.campaignId) ?? [];
      list.push({ key: facts.key, composite });
      byScenario.set(facts.campaignId, list);
    }
    const top = new Set<string>();
    for (const list of byScenario.values()) {
      list.sort((a, b) => b.composite - a.composite || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      for (const { key } of list.slice(0, k)) top.add(key);
    }
    return top;
  }
}
