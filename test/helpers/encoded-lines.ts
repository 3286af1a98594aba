import type { EncodedRowGroup } from "../../src/parquet/encode-row-group.js";

/** Records as the units encode them for JSON Lines shards: one "row group" of lines, no column chunks. */
export function encodedLines(records: readonly object[]): EncodedRowGroup {
  const bytes = Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  return { bytes, rows: records.length, columns: [], uncompressedSize: bytes.length, compressedSize: bytes.length };
}
