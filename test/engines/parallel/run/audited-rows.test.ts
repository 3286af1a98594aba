import { describe, expect, it } from "vitest";
import { AuditedRows } from "../../../../src/engines/parallel/run/audited-rows.js";
import { columnPlan } from "../../../../src/parquet/column-plan.js";
import { RowGroupBuilder } from "../../../../src/parquet/row-group-builder.js";

// A split run's row that the walk could not route first is written into the home split's row group and moved
// (run/split-route.ts); its audit answers must move with it. Rows routed first never move, so the end-to-end
// audit tests (unit-text-audit.test.ts) no longer reach this.
const plan = columnPlan([{ name: "text", type: { kind: "string" }, nullable: true }]);

/** A row begun in `rows`, with the walk's answers: `counts` per slot (def = count + 1), then `texts` flagged in slot 1. */
function walkedRow(rows: AuditedRows, counts: readonly number[], texts: readonly string[]): void {
  rows.beginRow();
  rows.walked();
  counts.forEach((n, slot) => rows.value(slot, n + 1));
  for (const t of texts) rows.flagged(1, t);
}

describe("AuditedRows.moveLastRowTo", () => {
  it("moves the row's counts and flagged texts with it, and leaves the rows before it as they were", () => {
    const home = new AuditedRows(plan, 2);
    const other = new AuditedRows(plan, 2);
    walkedRow(other, [5, 6], ["kept there"]);
    walkedRow(home, [1, 2], ["first"]);
    // A row begun without the walk's answers (the slow path's): -1, read from the column.
    home.beginRow();
    home.moveLastRowTo(other);
    walkedRow(home, [3, 4], ["moved a", "moved b"]);
    home.moveLastRowTo(other);
    expect(Array.from(home.answers().subarray(0, home.rows * 2))).toEqual([1, 2]);
    expect(home.texts).toEqual(["first"]);
    expect(home.textRows).toEqual([0]);
    expect(Array.from(other.answers().subarray(0, other.rows * 2))).toEqual([5, 6, -1, -1, 3, 4]);
    expect(other.texts).toEqual(["kept there", "moved a", "moved b"]);
    expect(other.textRows).toEqual([0, 2, 2]);
    expect(other.textSlots).toEqual([1, 1, 1]);
  });

  it("refuses a row group without audits as the target", () => {
    const home = new AuditedRows(plan, 1);
    walkedRow(home, [1], []);
    expect(() => home.moveLastRowTo(new RowGroupBuilder(plan))).toThrow(/without audits/);
  });
});
