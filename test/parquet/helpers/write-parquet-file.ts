import { writeFileSync } from "node:fs";
import type { Field } from "../../../src/schema/column-type.js";
import { columnPlan } from "../../../src/parquet/column-plan.js";
import { encodeRowGroup } from "../../../src/parquet/encode-row-group.js";
import type { EncodeOptions } from "../../../src/parquet/encode-row-group.js";
import { PARQUET_MAGIC } from "../../../src/parquet/parquet-footer.js";
import { parquetFooter } from "./parquet-footer.js";
import type { PlacedRowGroup } from "../../../src/parquet/parquet-footer.js";
import { RowGroupBuilder } from "../../../src/parquet/row-group-builder.js";
import { shredRecord } from "../../../src/parquet/shred-record.js";

export interface WriteOptions extends EncodeOptions {
  /** Rows per row group. */
  readonly rowGroupRows: number;
}

/**
 * A Parquet file of `records` built from the pieces directly (shredRecord, RowGroupBuilder, encodeRowGroup,
 * parquetFooter), so tests can choose row group and page sizes; returns the row groups as placed.
 */
export function writeParquetFile(path: string, columns: readonly Field[], records: readonly Record<string, unknown>[], options: WriteOptions): PlacedRowGroup[] {
  const plan = columnPlan(columns);
  const builder = new RowGroupBuilder(plan);
  const parts: Uint8Array[] = [PARQUET_MAGIC];
  const groups: PlacedRowGroup[] = [];
  let offset = PARQUET_MAGIC.length;
  const flush = () => {
    const { bytes, ...encoded } = encodeRowGroup(builder, options);
    groups.push({ encoded, offset });
    parts.push(bytes);
    offset += bytes.length;
    builder.clear();
  };
  for (const record of records) {
    builder.beginRow();
    shredRecord(plan, record, builder.leaves);
    if (builder.rows === options.rowGroupRows) flush();
  }
  if (builder.rows > 0) flush();
  parts.push(parquetFooter(plan, groups, { createdBy: "evalshard tests" }));
  writeFileSync(path, Buffer.concat(parts));
  return groups;
}
