import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assembleRows } from "../../src/parquet/assemble-rows.js";
import { columnPlan } from "../../src/parquet/column-plan.js";
import { RowGroupBuilder } from "../../src/parquet/row-group-builder.js";
import { shredRecord } from "../../src/parquet/shred-record.js";
import { columnsArb, recordArb } from "./helpers/column-arbitraries.js";
import { expectedRow } from "./helpers/record-space.js";

// A view that writes its rows into leaves gives them as objects by reading its row group back
// (src/views/written-rows.ts): the assembly must give back the rows shredding wrote, whatever the nesting.
describe("assembleRows reads a row group back as the rows shredded into it", () => {
  it("for random columns and records: nulls, empty lists and maps, JSON values, nesting", () => {
    fc.assert(
      fc.property(
        columnsArb.chain((columns) => fc.record({ columns: fc.constant(columns), records: fc.array(recordArb(columns), { maxLength: 8 }) })),
        ({ columns, records }) => {
          const builder = new RowGroupBuilder(columnPlan(columns));
          for (const record of records) {
            builder.beginRow();
            shredRecord(builder.plan, record, builder.leaves);
          }
          const rows = assembleRows(builder);
          expect(rows.map((row) => Object.keys(row))).toEqual(records.map(() => columns.map((f) => f.name)));
          expect(rows.map((row) => expectedRow(columns, row))).toEqual(records.map((record) => expectedRow(columns, record)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
