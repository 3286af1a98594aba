import { assembleRows } from "../parquet/assemble-rows.js";
import { columnPlan } from "../parquet/column-plan.js";
import { RowGroupBuilder } from "../parquet/row-group-builder.js";
import type { Field } from "../schema/column-type.js";
import type { ViewWrite } from "./view.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResult } from "./view-result.js";

/**
 * A view's `rows` for a view whose rows are written straight into leaves (`write`, its one implementation of
 * them): the record's rows written into a row group of the view's own, then read back as objects
 * (`assembleRows`). For whoever takes rows as objects: JSON Lines, token budgets, a quarantine's judgement.
 * The row group is the view's, emptied at each record: a record's rows are read before the next is written.
 */
export function writtenRows<Input, Row extends Record<string, unknown>>(columns: readonly Field[], write: ViewWrite<Input>): (record: Input, env: ViewEnv) => ViewResult<Row> {
  let written: { readonly builder: RowGroupBuilder; readonly write: ReturnType<ViewWrite<Input>> } | undefined;
  return (record, env) => {
    // Laid out at the first record: a view module is loaded by every run, and most never ask for objects.
    if (written === undefined) {
      const plan = columnPlan(columns);
      written = { builder: new RowGroupBuilder(plan), write: write(plan) };
    }
    const { builder } = written;
    builder.clear();
    const result = written.write(record, env, builder);
    // The rows are the view's columns, assembled as shredding them would have written them: the view's Row.
    return { rows: assembleRows(builder) as Row[], dropped: result.dropped, trimmed: result.trimmed };
  };
}
