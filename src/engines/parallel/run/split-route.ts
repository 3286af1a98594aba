import type { RowRoute } from "../fast/row-route.js";
import type { WalkAudit } from "../fast/walk-audit.js";
import type { LeafWriter } from "../../../parquet/leaf-writer.js";
import type { RowGroupBuilder } from "../../../parquet/row-group-builder.js";
import type { AuditedRows } from "./audited-rows.js";
import type { RowSplits } from "./row-splits.js";

/**
 * A split run's {@link RowRoute}: the fast parser begins each row in its split's row group of the batch's
 * unit, from the group key the wasm walk read, so the row is written once where it stays. A line whose key
 * the walk cannot tell first goes to the home split's row group, and moves once its record's group is known
 * (UnitConverter's `#decided`), as every row did before (docs/decisions.md).
 */
export class SplitRoute implements RowRoute {
  readonly #splits: RowSplits;
  readonly #home: number;
  /** Rows go to AuditedRows, which take the walk's audit answers. */
  readonly #audited: boolean;
  /** The batch's unit's row groups, one per split ({@link use}). */
  #builders: readonly RowGroupBuilder[] = [];
  /** The row group the last {@link pick} chose, and its writers and audit. */
  builder: RowGroupBuilder | null = null;
  out: readonly LeafWriter[] = [];
  audit: WalkAudit | null = null;

  constructor(splits: RowSplits, audited: boolean) {
    this.#splits = splits;
    this.#home = splits.home;
    this.#audited = audited;
  }

  /** The row groups the next lines' rows go to (a batch's unit's). */
  use(builders: readonly RowGroupBuilder[]): void {
    this.#builders = builders;
  }

  pick(key: string | null): void {
    const builder = this.#builders[key === null ? this.#home : this.#splits.splitOf(key)] as RowGroupBuilder;
    builder.beginRow();
    this.builder = builder;
    this.out = builder.leaves;
    this.audit = this.#audited ? (builder as AuditedRows) : null;
  }
}
