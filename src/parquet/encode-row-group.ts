import { ConfigError } from "../core/errors.js";
import { ByteWriter } from "./byte-writer.js";
import { PAGE_CODECS } from "./compress-page.js";
import type { PageCodec } from "./compress-page.js";
import { encodeColumnChunk } from "./encode-column-chunk.js";
import type { ChunkEncoder, ChunkInfo } from "./encode-column-chunk.js";
import type { RowGroupBuilder } from "./row-group-builder.js";

/**
 * zstd level of pages unless told otherwise: compression is the encoder's largest cost and the target is
 * speed; 2 is as fast as 1 and smaller, and no setting beats it by more than noise within +10% size
 * (docs/benchmarks.md, "Parquet encoder: zstd level and page size").
 */
export const DEFAULT_ZSTD_LEVEL = 2;
/** gzip level of pages: zlib's default. */
const GZIP_LEVEL = 6;
/**
 * A page ends at the first row start after this many uncompressed value bytes. 256 KiB, 4 MiB and
 * 16 MiB pages compress at the same speed as 1 MiB (zstd's cost is per byte), 4 MiB ~1% smaller.
 */
export const PAGE_BYTES = 1 << 20;

/** Options of {@link encodeRowGroup}. */
export interface EncodeOptions {
  readonly codec: PageCodec;
  /** zstd level, from -7 (fastest) to 22; default {@link DEFAULT_ZSTD_LEVEL}. */
  readonly zstdLevel?: number;
  /** Uncompressed value bytes per page; default {@link PAGE_BYTES} (tests lower it to get many pages). */
  readonly pageBytes?: number;
  /**
   * `bytes` is then a view of this thread's scratch memory, valid until the next call, instead of a copy:
   * for a caller that copies it somewhere anyway.
   */
  readonly scratch?: boolean;
}

/** A row group's metadata for the footer: plain data, so it crosses threads by structured clone. */
export interface RowGroupMetadata {
  readonly rows: number;
  /** One per leaf of the plan, in plan order. */
  readonly columns: readonly ChunkInfo[];
  /** Sum of the chunks' uncompressed sizes: the footer's `total_byte_size`. */
  readonly uncompressedSize: number;
  /** Bytes of the row group as written. */
  readonly compressedSize: number;
}

/** An encoded row group: its column chunks back to back, and the metadata the footer needs. */
export interface EncodedRowGroup extends RowGroupMetadata {
  /** The chunks' bytes: a copy of their own, or (`scratch`) a view of the encoder's memory. */
  readonly bytes: Uint8Array;
}

/** The level `options` compress pages at (zstd's, or gzip's own); throws on a codec or zstd level out of range. */
export function pageLevel(options: Pick<EncodeOptions, "codec" | "zstdLevel">): number {
  if (!PAGE_CODECS.includes(options.codec)) {
    throw new ConfigError(`Expected Parquet compression to be one of ${PAGE_CODECS.join(", ")}, got ${JSON.stringify(options.codec)}`);
  }
  const level = options.zstdLevel ?? DEFAULT_ZSTD_LEVEL;
  if (!Number.isSafeInteger(level) || level < -7 || level > 22) {
    throw new ConfigError(`Expected \`zstdLevel\` to be an integer from -7 to 22, got ${String(options.zstdLevel)}`);
  }
  return options.codec === "gzip" ? GZIP_LEVEL : level;
}

/** Scratch buffers, kept per thread between row groups so steady-state encoding allocates only its output. */
const out = new ByteWriter(1 << 20);
const page = new ByteWriter(1 << 20);
const compressed = new ByteWriter(1 << 20);

/**
 * Encodes the rows of `builder` as one row group's column chunks (V1 data pages, PLAIN values, RLE
 * levels, each page compressed with `codec`). Pure: no I/O, and the builder is left as it was.
 */
export function encodeRowGroup(builder: RowGroupBuilder, options: EncodeOptions): EncodedRowGroup {
  const level = pageLevel(options);
  const pageBytes = options.pageBytes ?? PAGE_BYTES;
  if (!(pageBytes >= 1)) throw new ConfigError(`Expected \`pageBytes\` to be 1 or more, got ${pageBytes}`);
  out.reset();
  const encoder: ChunkEncoder = { out, page, compressed, codec: options.codec, level, pageBytes };
  const columns = builder.columns.map((column) => encodeColumnChunk(column, encoder));
  return {
    bytes: options.scratch === true ? out.bytes.subarray(0, out.length) : out.toBytes(),
    rows: builder.rows,
    columns,
    uncompressedSize: columns.reduce((n, c) => n + c.uncompressedSize, 0),
    compressedSize: out.length,
  };
}
