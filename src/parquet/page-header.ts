import type { ByteWriter } from "./byte-writer.js";
import { zigzagVarintAt } from "./zigzag-varint.js";

/** The most bytes {@link writePageHeader} writes: ten field headers and fixed values, three 5-byte varints. */
const MAX_BYTES = 32;

/**
 * Appends a V1 data page's PageHeader (parquet.thrift) in Thrift's compact protocol: type DATA_PAGE, the
 * page's sizes, and a DataPageHeader of `values` entries, PLAIN values, RLE levels. The bytes ThriftWriter
 * writes for the same fields (test/parquet/page-header.test.ts), stored directly: a page costs one call
 * instead of a writer object and nine chained calls, which a split run's small row groups (three times the
 * pages) made hot enough for V8 to compile apart in every worker (docs/decisions.md). Sizes and counts are
 * i32s, so non-negative and under 2^31.
 */
export function writePageHeader(out: ByteWriter, uncompressedSize: number, compressedSize: number, values: number): void {
  out.ensure(MAX_BYTES);
  const b = out.bytes;
  let at = out.length;
  // Each field header: (id delta << 4) | type, type 5 (i32) or 12 (struct); an i32 is a zigzag varint (2v).
  b[at++] = 0x15; // 1: type
  b[at++] = 0; // DATA_PAGE
  b[at++] = 0x15; // 2: uncompressed_page_size
  at = zigzagVarintAt(b, at, uncompressedSize);
  b[at++] = 0x15; // 3: compressed_page_size
  at = zigzagVarintAt(b, at, compressedSize);
  b[at++] = 0x2c; // 5: data_page_header
  b[at++] = 0x15; // 1: num_values
  at = zigzagVarintAt(b, at, values);
  b[at++] = 0x15; // 2: encoding
  b[at++] = 0; // PLAIN
  b[at++] = 0x15; // 3: definition_level_encoding
  b[at++] = 6; // RLE (3)
  b[at++] = 0x15; // 4: repetition_level_encoding
  b[at++] = 6; // RLE (3)
  b[at++] = 0; // end of DataPageHeader
  b[at++] = 0; // end of PageHeader
  out.length = at;
}

