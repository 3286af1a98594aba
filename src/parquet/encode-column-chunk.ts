import type { ByteWriter } from "./byte-writer.js";
import type { ColumnBuffer } from "./column-buffer.js";
import type { LeafType } from "./column-plan.js";
import { compressPage } from "./compress-page.js";
import type { PageCodec } from "./compress-page.js";
import { bitWidth, packBooleans, writeRleHybrid } from "./rle-hybrid.js";
import { ThriftWriter } from "./thrift-writer.js";
import { valueRange } from "./value-range.js";

/** What the footer needs to know of one column chunk. Plain data: it crosses threads by structured clone. */
export interface ChunkInfo {
  /** Path in the Parquet schema, as in the plan's leaf. */
  readonly path: readonly string[];
  readonly type: LeafType;
  /** Where the chunk's first page header starts, relative to the row group's first byte. */
  readonly offset: number;
  /** Bytes of the chunk as written: page headers plus compressed pages. */
  readonly compressedSize: number;
  /** Bytes of the chunk with every page uncompressed, headers included. */
  readonly uncompressedSize: number;
  /** Entries (levels), nulls included: Parquet's `num_values`. */
  readonly numValues: number;
  /** Entries without a value (null, or an absent or empty ancestor). */
  readonly nullCount: number;
  readonly pages: number;
  readonly encodings: readonly ("PLAIN" | "RLE")[];
  readonly codec: PageCodec;
  /** INT64 and DOUBLE only (else null): the smallest and largest value; null without any non-NaN value. */
  readonly min: number | null;
  readonly max: number | null;
  /** DOUBLE only (else null): NaN values, which min and max leave out. */
  readonly nanCount: number | null;
}

/** Scratch space and settings shared by the chunks of one row group. */
export interface ChunkEncoder {
  /** Where pages go: the row group's bytes. */
  readonly out: ByteWriter;
  /** An uncompressed page being assembled. */
  readonly page: ByteWriter;
  /** A compressed page, before its header can be written. */
  readonly compressed: ByteWriter;
  readonly codec: PageCodec;
  readonly level: number;
  /** Uncompressed value bytes after which a page ends at the next row start. */
  readonly pageBytes: number;
}

/** Parquet enums used in page headers (parquet.thrift). */
const DATA_PAGE = 0;
const PLAIN = 0;
const RLE = 3;

/**
 * Appends one column chunk to `encoder.out`: V1 data pages, each holding repetition levels then
 * definition levels (RLE/bit-packed hybrid with a 4-byte length) then PLAIN values, compressed whole.
 * A page ends once it holds `pageBytes` of values, at the next row start (repetition level 0), so no
 * row spans two pages.
 */
export function encodeColumnChunk(column: ColumnBuffer, encoder: ChunkEncoder): ChunkInfo {
  const offset = encoder.out.length;
  chunkPages = 0;
  chunkSize = 0;
  if (column.valueBytes <= encoder.pageBytes || column.entries === 0) writePage(column, encoder, 0, column.entries, 0, column.valueBytes);
  else writePages(column, encoder);
  return chunkInfo(column, encoder, offset);
}

/**
 * Pages and uncompressed bytes of the chunk being written, counted by {@link writePage}. Counted there,
 * not by the callers, so nothing follows the page loop but `return` (docs/decisions.md "hot code shape",
 * cold paths).
 */
let chunkPages = 0;
let chunkSize = 0;

/** The pages of a column holding more than a page of values, each ending at the first row start after `pageBytes`. */
function writePages(column: ColumnBuffer, encoder: ChunkEncoder): void {
  const { entries, valueBytes, defs, reps, view, maxDef, width } = column;
  const repeated = column.maxRep > 0;
  let e0 = 0;
  let b0 = 0;
  let b = 0;
  if (width === 0) touch(column.values, 0, Math.min(valueBytes, encoder.pageBytes));
  for (let e = 0; ; e++) {
    // The last page is written here too, so that one call site (warmed by every page) writes them all.
    if (e === entries || (b - b0 >= encoder.pageBytes && e > e0 && (!repeated || reps[e] === 0))) {
      writePage(column, encoder, e0, e, b0, b);
      if (e === entries) return;
      e0 = e;
      b0 = b;
      if (width === 0) touch(column.values, b0, Math.min(valueBytes, b0 + encoder.pageBytes));
    }
    if (maxDef === 0 || defs[e] === maxDef) b += width > 0 ? width : 4 + view.getUint32(b, true);
  }
}

/** Writes one page (header and body) of entries `[e0, e1)`, values at bytes `[b0, b1)`; counts it in {@link chunkPages} and {@link chunkSize}. */
function writePage(column: ColumnBuffer, encoder: ChunkEncoder, e0: number, e1: number, b0: number, b1: number): void {
  const { page, out, codec } = encoder;
  page.reset();
  if (column.maxRep > 0) writeLevels(page, column.reps, e0, e1, column.maxRep);
  if (column.maxDef > 0) writeLevels(page, column.defs, e0, e1, column.maxDef);
  // Values are copied after the levels, not compressed in place: the values are cached by then, so the copy is cheap.
  if (column.leaf.type === "bool") packBooleans(page, column.values, b0, b1);
  else page.append(column.values, b0, b1);

  const body = page.bytes.subarray(0, page.length);
  let size = body.length;
  if (codec !== "none") {
    encoder.compressed.reset();
    compressPage(codec, encoder.level, body, encoder.compressed);
    size = encoder.compressed.length;
  }
  const headerStart = out.length;
  new ThriftWriter(out)
    .i32(1, DATA_PAGE)
    .i32(2, body.length)
    .i32(3, size)
    .struct(5)
    .i32(1, e1 - e0)
    .i32(2, PLAIN)
    .i32(3, RLE)
    .i32(4, RLE)
    .end()
    .end();
  const header = out.length - headerStart;
  if (codec === "none") out.append(body);
  else out.append(encoder.compressed.bytes, 0, encoder.compressed.length);
  chunkPages++;
  chunkSize += header + body.length;
}

/** `valueRange`'s output (min, max, NaNs), reused for every chunk. */
const RANGE = new Float64Array(3);

/** What the footer needs of a chunk whose pages are written. */
function chunkInfo(column: ColumnBuffer, encoder: ChunkEncoder, offset: number): ChunkInfo {
  const type = column.leaf.type;
  const ranged = valueRange(column, RANGE);
  return {
    path: column.leaf.path,
    type,
    offset,
    compressedSize: encoder.out.length - offset,
    uncompressedSize: chunkSize,
    numValues: column.entries,
    nullCount: column.nullCount,
    pages: chunkPages,
    encodings: column.maxDef > 0 || column.maxRep > 0 ? ["PLAIN", "RLE"] : ["PLAIN"],
    codec: encoder.codec,
    min: ranged ? (RANGE[0] as number) : null,
    max: ranged ? (RANGE[1] as number) : null,
    nanCount: type === "float64" ? (RANGE[2] as number) : null,
  };
}

/**
 * Reads one byte per cache line of `bytes[start, end)`. Finding a page's end chases value lengths, one
 * dependent load per value, each a cache (and often TLB) miss on a cold column. Independent loads in
 * address order let the CPU overlap the misses and prefetch ahead, so the chase, the copy and the
 * compressor then read cached bytes.
 */
function touch(bytes: Uint8Array, start: number, end: number): void {
  let sum = sink;
  for (let i = start; i < end; i += 64) sum ^= bytes[i] as number;
  // Kept where the compiler cannot prove it unused, so the loads are not dropped as dead code. A module
  // variable, not an object property: docs/decisions.md "hot code shape", cold paths.
  sink = sum;
}
let sink = 0;

/** Levels of a V1 data page: the 4-byte little-endian length, then the RLE/bit-packed hybrid runs. */
function writeLevels(page: ByteWriter, levels: Uint8Array, e0: number, e1: number, max: number): void {
  const at = page.length;
  page.u32(0);
  writeRleHybrid(page, levels, e0, e1, bitWidth(max));
  page.u32At(at, page.length - at - 4);
}
