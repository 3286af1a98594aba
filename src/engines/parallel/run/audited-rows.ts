import { grown } from "../../../core/grown.js";
import type { ColumnPlan } from "../../../parquet/column-plan.js";
import { RowGroupBuilder } from "../../../parquet/row-group-builder.js";
import type { WalkAudit } from "../fast/walk-audit.js";

/**
 * A unit's row group in a plain run whose walk audits texts and JSON values (fast/walk-audit.ts, whose answers
 * the parser hands here as it writes the row): besides the rows, per row and audited slot the walk's count of
 * the row's texts (-1: the audit reads that row's values from the column: the wasm walk did not take the line,
 * or could not tell), and the texts that may matter, by row. Every way a row comes, goes or moves (a discarded line,
 * a split's move, dedup's `retain`, a segment taken) carries them with it, so the audit of the kept rows adds
 * up exactly what it would read from their columns.
 */
export class AuditedRows extends RowGroupBuilder implements WalkAudit {
  readonly slots: number;
  /** Per row, `slots` counts. */
  counts: Float64Array;
  /** The flagged literals: each one's row, slot and decoded text, in row order. */
  readonly textRows: number[] = [];
  readonly textSlots: number[] = [];
  readonly texts: string[] = [];

  constructor(plan: ColumnPlan, slots: number, sizedLike?: RowGroupBuilder) {
    super(plan, sizedLike);
    this.slots = slots;
    this.counts = new Float64Array(Math.max(1, slots * 64));
  }

  /**
   * Rows whose counts are set. A row begun without the walk's answers (the slow path's) gets
   * -1 when a later one is answered or the counts are read: `beginRow` stays the base class's, small enough
   * to compile into the converter's `#fast` (docs/decisions.md "hot code shape", compile size).
   */
  #set = 0;

  /** Per row and slot, the walk's count (-1: read the row's values from the column). */
  answers(): Float64Array {
    this.#settle(this.rows);
    return this.counts;
  }

  // The wasm walk's answers for the row begun last (fast/walk-audit.ts): the parser hands them here.

  walked(): void {
    const row = this.rows - 1;
    this.#settle(row);
    this.#room(this.rows);
    const counts = this.counts;
    for (let k = row * this.slots, end = k + this.slots; k < end; k++) counts[k] = 0;
    this.#set = this.rows;
  }

  value(slot: number, def: number): void {
    const at = (this.rows - 1) * this.slots + slot;
    const now = this.counts[at] as number;
    if (def === 0) this.counts[at] = -1;
    else if (now >= 0) this.counts[at] = now + def - 1;
  }

  flagged(slot: number, text: string): void {
    this.#text(this.rows - 1, slot, text);
  }

  override discardRow(): void {
    super.discardRow();
    if (this.#set > this.rows) this.#set = this.rows;
    this.#dropTextsFrom(this.rows);
  }

  override moveLastRowTo(to: RowGroupBuilder): void {
    this.#settle(this.rows);
    const row = this.rows - 1;
    if (!(to instanceof AuditedRows)) throw new Error("Internal error: an audited row moved to a row group without audits");
    to.#settle(to.rows);
    super.moveLastRowTo(to);
    this.#set = this.rows;
    const target = to.rows - 1;
    to.#room(to.rows);
    to.#set = to.rows;
    to.counts.set(this.counts.subarray(row * this.slots, (row + 1) * this.slots), target * this.slots);
    const first = this.#firstTextOf(row);
    for (let k = first; k < this.texts.length; k++) to.#text(target, this.textSlots[k] as number, this.texts[k] as string);
    this.#dropTextsFrom(row);
  }

  override retain(keep: (row: number) => boolean): number {
    this.#settle(this.rows);
    const mask = new Uint8Array(this.rows);
    for (let r = 0; r < mask.length; r++) mask[r] = keep(r) ? 1 : 0;
    const removed = super.retain((row) => mask[row] === 1);
    this.#set = this.rows;
    if (removed === 0) return 0;
    const s = this.slots;
    const newRow = new Int32Array(mask.length);
    let kept = 0;
    for (let r = 0; r < mask.length; r++) {
      newRow[r] = mask[r] === 1 ? kept : -1;
      if (mask[r] === 1) this.counts.copyWithin(kept++ * s, r * s, (r + 1) * s);
    }
    let w = 0;
    for (let k = 0; k < this.texts.length; k++) {
      const row = newRow[this.textRows[k] as number] as number;
      if (row < 0) continue;
      this.textRows[w] = row;
      this.textSlots[w] = this.textSlots[k] as number;
      this.texts[w++] = this.texts[k] as string;
    }
    this.#truncateTexts(w);
    return removed;
  }

  override takeFirstRows<T>(rows: number, use: (builder: RowGroupBuilder) => T): T {
    this.#settle(this.rows);
    const result = super.takeFirstRows(rows, use);
    this.#set = this.rows;
    const s = this.slots;
    this.counts.copyWithin(0, rows * s, (rows + this.rows) * s);
    const first = this.#firstTextOf(rows);
    for (let k = first; k < this.texts.length; k++) {
      this.textRows[k - first] = (this.textRows[k] as number) - rows;
      this.textSlots[k - first] = this.textSlots[k] as number;
      this.texts[k - first] = this.texts[k] as string;
    }
    this.#truncateTexts(this.texts.length - first);
    return result;
  }

  override clear(): void {
    super.clear();
    this.#set = 0;
    this.#truncateTexts(0);
  }

  /** Counts of -1 for the rows up to `rows` begun without the walk's answers. */
  #settle(rows: number): void {
    if (this.#set >= rows) return;
    this.#room(rows);
    const counts = this.counts;
    for (let k = this.#set * this.slots, end = rows * this.slots; k < end; k++) counts[k] = -1;
    this.#set = rows;
  }

  #text(row: number, slot: number, text: string): void {
    this.textRows.push(row);
    this.textSlots.push(slot);
    this.texts.push(text);
  }

  /** The index of the first flagged literal of `row` or a later row. */
  #firstTextOf(row: number): number {
    let k = this.texts.length;
    while (k > 0 && (this.textRows[k - 1] as number) >= row) k--;
    return k;
  }

  #dropTextsFrom(row: number): void {
    this.#truncateTexts(this.#firstTextOf(row));
  }

  #truncateTexts(length: number): void {
    this.textRows.length = length;
    this.textSlots.length = length;
    this.texts.length = length;
  }

  /** Room for `rows` rows' counts. */
  #room(rows: number): void {
    if (rows * this.slots > this.counts.length) this.counts = grown(this.counts, rows * this.slots);
  }
}
