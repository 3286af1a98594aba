import type { ColumnBuffer } from "../../../parquet/column-buffer.js";
import type { ColumnPlan } from "../../../parquet/column-plan.js";
import type { RowGroupBuilder } from "../../../parquet/row-group-builder.js";
import { SAFETY_TRAITS } from "../../../formats/seat-score.js";
import type { DatasetStats } from "../../../stats/dataset-stats.js";

const path = (...parts: string[]) => parts.join("\u0000");
const MET = path("scores", "outcomes", "met_count");
const TOTAL = path("scores", "outcomes", "total_checks");
const KEY = path("scores", "per_trait", "list", "element", "key");
const MEAN = path("scores", "per_trait", "list", "element", "value", "mean");

/**
 * An SFT row's own scores read back from the row group it was shredded into, for the dataset's statistics
 * (issue 36): building `scores.per_trait` into every record's skeleton instead cost ~10% of a conversion's CPU
 * (a map object per record, filled by keyed stores). The same definitions as `seatScoreOf`.
 */
export class ShreddedScores {
  private constructor(private readonly leaves: { readonly met: number; readonly total: number; readonly key: number; readonly mean: number }) {}

  /** For a plan holding SFT's scores; null for any other (RL, DPO, a view's rows). */
  static of(plan: ColumnPlan): ShreddedScores | null {
    const at = new Map(plan.leaves.map((leaf) => [path(...leaf.path), leaf.index]));
    const [met, total, key, mean] = [at.get(MET), at.get(TOTAL), at.get(KEY), at.get(MEAN)];
    return met === undefined || total === undefined || key === undefined || mean === undefined ? null : new ShreddedScores({ met, total, key, mean });
  }

  /** Adds the scores and trait means of the rows `keep` marks (one level each, in the builder's row order) to `stats`. */
  addTo(stats: DatasetStats, builder: RowGroupBuilder, keep: Uint8Array): void {
    const { met, total, key, mean } = this.leaves;
    const metCol = builder.columns[met] as ColumnBuffer;
    const keys = builder.columns[key] as ColumnBuffer;
    const means = builder.columns[mean] as ColumnBuffer;
    const metOf = int64s(metCol);
    const totalOf = int64s(builder.columns[total] as ColumnBuffer);
    let k = 0;
    let keyAt = 0;
    let meanAt = 0;
    for (let row = 0; row < metCol.entries; row++) {
      const kept = keep[row] === 1;
      let sum = 0;
      let counted = 0;
      // A row's map entries: from its first level (repetition 0) to the next row's.
      for (let first = true; k < keys.entries && (first || keys.reps[k] !== 0); k++, first = false) {
        const hasKey = keys.defs[k] === keys.maxDef;
        const keyEnd = hasKey ? keyAt + 4 + keys.view.getUint32(keyAt, true) : keyAt;
        const name = hasKey && kept ? keys.values.toString("utf8", keyAt + 4, keyEnd) : null;
        keyAt = keyEnd;
        if (means.defs[k] !== means.maxDef) continue;
        const value = means.view.getFloat64(meanAt, true);
        meanAt += 8;
        if (name === null || !Number.isFinite(value)) continue;
        stats.addTrait(name, value, 1);
        if (!SAFETY_TRAITS.has(name)) {
          sum += value;
          counted++;
        }
      }
      if (!kept) continue;
      // Unscored: `scores` itself is null (the lowest definition level).
      if ((metCol.defs[row] ?? 0) < 1) stats.addScore(null, 1);
      else {
        const t = totalOf(row) ?? 0;
        stats.addScoreValues(counted === 0 ? null : sum / counted, t === 0 ? 0 : (metOf(row) ?? 0) / t, 1);
      }
    }
  }
}

/** An INT64 column's value per row (one level a row), or undefined where it is absent. */
function int64s(column: ColumnBuffer): (row: number) => number | undefined {
  const values: (number | undefined)[] = [];
  let at = 0;
  for (let row = 0; row < column.entries; row++) {
    if (column.maxDef === 0 || column.defs[row] === column.maxDef) {
      values.push(column.view.getUint32(at, true) + column.view.getInt32(at + 4, true) * 4294967296);
      at += 8;
    } else values.push(undefined);
  }
  return (row) => values[row];
}
