import type { ColumnPlan } from "./column-plan.js";
import { ColumnBuffer } from "./column-buffer.js";
import { compactRows } from "./compact-rows.js";
import { rowPrefix } from "./row-prefix.js";
import type { ColumnLengths } from "./column-buffer.js";
import type { LeafWriter } from "./leaf-writer.js";

/**
 * The rows of one row group while they are shredded: one {@link ColumnBuffer} per leaf of the plan.
 * Every row starts with {@link beginRow}; {@link encodeRowGroup} turns the buffers into pages, and
 * {@link clear} empties them for the next group, keeping their memory.
 */
export class RowGroupBuilder {
  readonly plan: ColumnPlan;
  readonly columns: readonly ColumnBuffer[];
  /** The columns as the shredders see them, in plan leaf order. */
  readonly leaves: readonly LeafWriter[];
  /** Rows begun so far. */
  rows = 0;
  #open = false;

  /**
   * `sizedLike`: a builder of the same plan whose columns' room this one starts with. A builder grown row by
   * row from nothing allocates its final size over again in the buffers it outgrew, each a page fault per
   * 4 KiB of fresh memory; one sized like a builder that already held a full group does not.
   */
  constructor(plan: ColumnPlan, sizedLike?: RowGroupBuilder) {
    this.plan = plan;
    this.columns = plan.leaves.map((leaf, i) => {
      const like = sizedLike?.columns[i];
      return like === undefined ? new ColumnBuffer(leaf) : new ColumnBuffer(leaf, like.levelCapacity, like.values.length);
    });
    this.leaves = this.columns;
  }

  /** Approximate bytes held: values plus one byte per stored level. */
  get bytes(): number {
    let total = 0;
    for (const c of this.columns) total += c.valueBytes + c.entries * ((c.maxDef > 0 ? 1 : 0) + (c.maxRep > 0 ? 1 : 0));
    return total;
  }

  /** Starts a row: remembers every leaf's lengths so {@link discardRow} can return to them. */
  beginRow(): void {
    for (const c of this.columns) c.mark();
    this.rows++;
    this.#open = true;
  }

  /**
   * Removes the row begun last, whatever was written into it: for a line a parser gave up on half-way.
   * Only the last row can be discarded, once.
   */
  discardRow(): void {
    if (!this.#open) throw new Error("discardRow() without a row begun since the last discard, retain or clear");
    for (const c of this.columns) c.rollback();
    this.rows--;
    this.#open = false;
  }

  /**
   * Keeps only the rows (numbered from 0 in this group) for which `keep` answers true, in order; returns
   * how many were removed. For decisions that arrive after rows were shredded (dedup); linear in the data.
   */
  retain(keep: (row: number) => boolean): number {
    const mask = new Uint8Array(this.rows);
    let kept = 0;
    for (let r = 0; r < this.rows; r++) {
      if (keep(r)) {
        mask[r] = 1;
        kept++;
      }
    }
    const removed = this.rows - kept;
    if (removed > 0) for (const c of this.columns) compactRows(c, mask);
    this.rows = kept;
    this.#open = false;
    return removed;
  }

  /**
   * Moves the row begun last to the end of `to`, a builder of the same plan, and drops it here. A split run's
   * row is written where the parser writes it before its record's group (and split) is known; it then moves
   * to its split's row group, one copy of the row, not of the group.
   */
  moveLastRowTo(to: RowGroupBuilder): void {
    if (!this.#open) throw new Error("moveLastRowTo() without a row begun since the last discard, retain or clear");
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) (columns[i] as ColumnBuffer).moveRowTo(to.columns[i] as ColumnBuffer);
    this.rows--;
    to.rows++;
    this.#open = false;
    to.#open = true;
  }

  /**
   * Returns `use(this)` called while the builder shows only its first `rows` rows: each column cut to that
   * row's lengths, what follows left where it is, and shown again afterwards. A unit cut across shards
   * encodes its first segment so, without a copy of the unit.
   */
  withFirstRows<T>(rows: number, use: (builder: RowGroupBuilder) => T): T {
    return rows === this.rows ? use(this) : this.#showing(rows, this.#prefix(rows), use);
  }

  /**
   * {@link withFirstRows}, then those rows are gone: what follows moves to the front, one copy per column
   * (a unit cut into several row groups, across shards or splits, is encoded a segment at a time so; a
   * `retain` of the rest walked every value that stays, for each segment).
   */
  takeFirstRows<T>(rows: number, use: (builder: RowGroupBuilder) => T): T {
    const first = this.#prefix(rows);
    const result = this.#showing(rows, first, use);
    this.columns.forEach((c, i) => c.dropFirst(first[i] as ColumnLengths));
    this.rows -= rows;
    return result;
  }

  /** Each column's lengths of its first `rows` rows. */
  #prefix(rows: number): ColumnLengths[] {
    if (rows > this.rows) throw new Error(`Internal error: ${rows} first rows of a row group of ${this.rows}`);
    return this.columns.map((c) => rowPrefix(c, rows));
  }

  /** `use(this)` while the columns are cut to `first` (their first `rows` rows), then shown whole again. */
  #showing<T>(rows: number, first: readonly ColumnLengths[], use: (builder: RowGroupBuilder) => T): T {
    const all = this.columns.map((c) => c.lengths);
    const total = this.rows;
    this.columns.forEach((c, i) => c.truncate(first[i] as ColumnLengths));
    this.rows = rows;
    try {
      return use(this);
    } finally {
      this.columns.forEach((c, i) => c.truncate(all[i] as ColumnLengths));
      this.rows = total;
      this.#open = false;
    }
  }

  /** Empties every column for the next row group, keeping the memory. */
  clear(): void {
    for (const c of this.columns) c.clear();
    this.rows = 0;
    this.#open = false;
  }
}
