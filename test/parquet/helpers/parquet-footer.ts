import type { ColumnPlan } from "../../../src/parquet/column-plan.js";
import { FooterBuilder } from "../../../src/parquet/parquet-footer.js";
import type { PlacedRowGroup } from "../../../src/parquet/parquet-footer.js";

/** The footer of a file of `rowGroups`, placed where the test put them: `FooterBuilder` fed them all at once. */
export function parquetFooter(plan: ColumnPlan, rowGroups: readonly PlacedRowGroup[], options: { readonly createdBy: string }): Uint8Array {
  const footer = new FooterBuilder(plan);
  for (const group of rowGroups) footer.add(group);
  return footer.bytes(options.createdBy);
}
