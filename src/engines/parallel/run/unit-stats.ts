import { DatasetStats } from "../../../stats/dataset-stats.js";
import type { StatsPartial } from "../../../stats/dataset-stats.js";
import type { StatsRow } from "../../../stats/stats-row.js";
import type { ShreddedScores } from "./shredded-scores.js";
import type { RowGroupBuilder } from "../../../parquet/row-group-builder.js";

/**
 * A worker's share of the dataset's statistics (issue 36): each kept record's facts, noted in the order its
 * rows enter its split's row group, until main decides which rows stay; then the unit's partial, which goes
 * back with its encoded rows and merges in main.
 */
export class UnitStats {
  /** Per unit, per split: each record's facts and how many rows it gave, in row order. */
  readonly #units = new Map<number, { row: StatsRow; rows: number }[][]>();

  constructor(private readonly splits: number) {}

  note(unit: number, split: number, row: StatsRow, rows: number): void {
    let perSplit = this.#units.get(unit);
    if (perSplit === undefined) this.#units.set(unit, (perSplit = Array.from({ length: this.splits }, () => [])));
    perSplit[split]?.push({ row, rows });
  }

  /**
   * The unit's partial, from main's `keep` per split (in row order, as the row groups hold the rows).
   * `shredded`: the rows' own scores are read back from each split's row group (`builders`), not from the
   * noted facts (see ShreddedScores).
   */
  settle(unit: number, keepOf: (split: number) => Uint8Array, shredded: { readonly scores: ShreddedScores; readonly builders: readonly RowGroupBuilder[] } | null = null): StatsPartial {
    const stats = new DatasetStats();
    const perSplit = this.#units.get(unit) ?? [];
    this.#units.delete(unit);
    for (const [split, entries] of perSplit.entries()) {
      const keep = keepOf(split);
      let at = 0;
      for (const { row, rows } of entries) {
        let kept = 0;
        for (const end = at + rows; at < end; at++) kept += keep[at] ?? 0;
        if (shredded === null) stats.add(row, kept);
        else if (kept > 0) stats.addRows(row.scenario, row.split, kept);
      }
      const builder = shredded?.builders[split];
      if (shredded !== null && builder !== undefined) shredded.scores.addTo(stats, builder, keep);
    }
    return stats.toPartial();
  }
}
