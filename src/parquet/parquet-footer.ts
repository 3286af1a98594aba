import { ByteWriter } from "./byte-writer.js";
import type { ColumnPlan } from "./column-plan.js";
import type { ChunkInfo } from "./encode-column-chunk.js";
import type { RowGroupMetadata } from "./encode-row-group.js";
import { physicalType, schemaElements, writeSchemaElements } from "./schema-elements.js";
import { CompactType, ThriftWriter } from "./thrift-writer.js";
import { zigzagVarintAt } from "./zigzag-varint.js";

/** "PAR1": the first and last 4 bytes of every Parquet file. */
export const PARQUET_MAGIC: Uint8Array = new Uint8Array([0x50, 0x41, 0x52, 0x31]);

/** A row group as placed in the file. */
export interface PlacedRowGroup {
  /** The row group's metadata (an {@link EncodedRowGroup} with or without its bytes). */
  readonly encoded: RowGroupMetadata;
  /** Absolute file offset of the row group's first byte. */
  readonly offset: number;
}

const CODECS: Readonly<Record<ChunkInfo["codec"], number>> = { none: 0, snappy: 1, gzip: 2, zstd: 6 };
const ENCODINGS: Readonly<Record<ChunkInfo["encodings"][number], number>> = { PLAIN: 0, RLE: 3 };
/** Row group ordinals are i16. */
const MAX_ORDINAL = 32767;

/**
 * The end of a Parquet file, built a row group at a time as the groups are written: FileMetaData (Thrift
 * compact), its 4-byte little-endian length, and "PAR1". A file is `PARQUET_MAGIC`, the row groups' bytes in
 * order, then this; with no row groups it holds the schema alone and is still valid. Each group's metadata is
 * serialized when it is added, so closing a file only wraps them, and the end of a run, when the workers have
 * nothing left to do, is not spent building it. Offsets come from the caller.
 */
export class FooterBuilder {
  readonly #plan: ColumnPlan;
  /** The RowGroup structs added so far, each as a list element (its fields and a stop byte). */
  readonly #groups = new ByteWriter(4096);
  #count = 0;
  #rows = 0;
  /** Per leaf: {@link leadOf}'s bytes, and the chunk they were made from. */
  readonly #leads: { readonly chunk: ChunkInfo; readonly bytes: Uint8Array }[] = [];

  constructor(plan: ColumnPlan) {
    this.#plan = plan;
  }

  add({ encoded, offset }: PlacedRowGroup): void {
    const plan = this.#plan;
    const ordinal = this.#count;
    if (encoded.columns.length !== plan.leaves.length) {
      throw new Error(`Row group ${ordinal} has ${encoded.columns.length} column chunks where the schema has ${plan.leaves.length} leaves`);
    }
    // A struct element of a list is its fields then a stop byte: a top-level struct of its own.
    const t = new ThriftWriter(this.#groups).list(1, CompactType.STRUCT, encoded.columns.length);
    for (let i = 0; i < encoded.columns.length; i++) {
      const chunk = encoded.columns[i] as ChunkInfo;
      const leaf = plan.leaves[i];
      if (leaf === undefined || !sameItems(chunk.path, leaf.path)) {
        throw new Error(`Row group ${ordinal}, chunk ${i} is ${chunk.path.join(".")} where the schema has ${leaf?.path.join(".")}`);
      }
      writeColumnChunk(this.#groups, chunk, offset, this.#leadOf(i, chunk));
    }
    t.i64(2, encoded.uncompressedSize).i64(3, encoded.rows).i64(5, offset).i64(6, encoded.compressedSize);
    if (ordinal <= MAX_ORDINAL) t.i16(7, ordinal);
    t.end();
    this.#count++;
    this.#rows += encoded.rows;
  }

  /**
   * Chunk `i`'s ColumnMetaData fields 1-4 (type, encodings, path, codec), serialized once per leaf: they are
   * the same in every row group, and a split run's footers hold three times the chunks of a plain run's.
   */
  #leadOf(i: number, chunk: ChunkInfo): Uint8Array {
    const lead = this.#leads[i];
    if (lead !== undefined && lead.chunk.type === chunk.type && lead.chunk.codec === chunk.codec && sameItems(lead.chunk.encodings, chunk.encodings)) return lead.bytes;
    const t = new ThriftWriter(new ByteWriter(64));
    t.i32(1, physicalType(chunk.type));
    t.list(2, CompactType.I32, chunk.encodings.length);
    for (const e of chunk.encodings) t.itemI32(ENCODINGS[e]);
    t.list(3, CompactType.BINARY, chunk.path.length);
    for (const p of chunk.path) t.itemString(p);
    t.i32(4, CODECS[chunk.codec]);
    const bytes = t.out.toBytes();
    this.#leads[i] = { chunk, bytes };
    return bytes;
  }

  /** The footer of the groups added so far; `createdBy`: FileMetaData `created_by`, e.g. "evalshard version 0.1.0". */
  bytes(createdBy: string): Uint8Array {
    const out = new ByteWriter(4096 + this.#groups.length);
    const t = new ThriftWriter(out);
    t.i32(1, 1);
    writeSchemaElements(t, schemaElements(this.#plan));
    t.i64(3, this.#rows);
    t.list(4, CompactType.STRUCT, this.#count);
    out.append(this.#groups.bytes, 0, this.#groups.length);
    t.string(6, createdBy);
    // The order min_value/max_value follow; without it readers must ignore them.
    t.list(7, CompactType.STRUCT, this.#plan.leaves.length);
    for (let i = 0; i < this.#plan.leaves.length; i++) t.itemStruct().emptyStruct(1).end();
    t.end();

    const length = out.length;
    out.u32(length);
    out.append(PARQUET_MAGIC);
    return out.toBytes();
  }
}

/** The most bytes of a ColumnChunk besides its lead: fixed bytes, six varints of up to 8 bytes, two bounds. */
const CHUNK_MAX_BYTES = 96;

/**
 * Appends a ColumnChunk as a list element (its fields, then a stop byte) in Thrift's compact protocol;
 * `lead`: its ColumnMetaData's fields 1-4 as serialized (see `FooterBuilder.#leadOf`). The bytes ThriftWriter
 * wrote for it (test/parquet/parquet-footer.test.ts), stored directly: one call per chunk instead of ~17
 * chained ones (docs/decisions.md "hot code shape", compile size). Every number here is a non-negative integer.
 */
function writeColumnChunk(out: ByteWriter, chunk: ChunkInfo, rowGroupOffset: number, lead: Uint8Array): void {
  out.ensure(lead.length + CHUNK_MAX_BYTES);
  const b = out.bytes;
  let at = out.length;
  // Each field header: (id delta << 4) | type; types 6 i64, 8 binary, 12 struct, 1 true.
  b[at++] = 0x26; // 2: file_offset
  b[at++] = 0; // 0
  b[at++] = 0x1c; // 3: meta_data
  b.set(lead, at); // ColumnMetaData 1-4: type, encodings, path_in_schema, codec
  at += lead.length;
  b[at++] = 0x16; // 5: num_values
  at = zigzagVarintAt(b, at, chunk.numValues);
  b[at++] = 0x16; // 6: total_uncompressed_size
  at = zigzagVarintAt(b, at, chunk.uncompressedSize);
  b[at++] = 0x16; // 7: total_compressed_size
  at = zigzagVarintAt(b, at, chunk.compressedSize);
  b[at++] = 0x26; // 9: data_page_offset
  at = zigzagVarintAt(b, at, rowGroupOffset + chunk.offset);
  b[at++] = 0x3c; // 12: statistics
  b[at++] = 0x36; // 3: null_count
  at = zigzagVarintAt(b, at, chunk.nullCount);
  let last = 3;
  if (chunk.min !== null && chunk.max !== null) {
    b[at++] = 0x28; // 5: max_value, 8 bytes
    b[at++] = 8;
    at = bound(out.view, at, chunk.type, chunk.max);
    b[at++] = 0x18; // 6: min_value, 8 bytes
    b[at++] = 8;
    at = bound(out.view, at, chunk.type, chunk.min);
    b[at++] = 0x11; // 7: is_max_value_exact, true
    b[at++] = 0x11; // 8: is_min_value_exact, true
    last = 8;
  }
  if (chunk.nanCount !== null) {
    b[at++] = ((9 - last) << 4) | 6; // 9: nan_count
    at = zigzagVarintAt(b, at, chunk.nanCount);
  }
  b[at++] = 0; // end of Statistics
  b[at++] = 0; // end of ColumnMetaData
  b[at++] = 0; // end of ColumnChunk
  out.length = at;
}

/** Two lists of strings (a path, encodings) hold the same items. */
function sameItems(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A statistics bound, PLAIN-encoded (8 bytes little-endian) at `at` of `view`; returns where it ends. */
function bound(view: DataView, at: number, type: ChunkInfo["type"], value: number): number {
  if (type === "float64") view.setFloat64(at, value, true);
  else view.setBigInt64(at, BigInt(value), true);
  return at + 8;
}
