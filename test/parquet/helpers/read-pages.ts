import { gunzipSync, zstdDecompressSync as decompress } from "node:zlib";
import { readRleBitPackedHybrid } from "hyparquet/src/encoding.js";
import { deserializeTCompactProtocol } from "hyparquet/src/thrift.js";
import type { ChunkInfo } from "../../../src/parquet/encode-column-chunk.js";
import { bitWidth } from "../../../src/parquet/rle-hybrid.js";

/** One data page of a chunk, decoded far enough to check how the chunk was split. */
export interface DecodedPage {
  /** The page header as hyparquet's Thrift reader returns it (`field_N` keys). */
  readonly header: Record<string, unknown>;
  readonly numValues: number;
  readonly reps: number[];
  readonly defs: number[];
  /** Bytes of PLAIN values after the levels. */
  readonly valueBytes: number;
}

/** The pages of a column chunk (in a row group's or a file's bytes), with their levels decoded by hyparquet. */
export function readPages(bytes: Uint8Array, chunk: Pick<ChunkInfo, "offset" | "compressedSize" | "codec">, maxDef: number, maxRep: number): DecodedPage[] {
  const pages: DecodedPage[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const reader = { view, offset: chunk.offset };
  while (reader.offset < chunk.offset + chunk.compressedSize) {
    const header = deserializeTCompactProtocol(reader) as Record<string, unknown>;
    const size = header.field_3 as number;
    const raw = bytes.subarray(reader.offset, reader.offset + size);
    reader.offset += size;
    const body = chunk.codec === "zstd" ? decompress(Buffer.from(raw)) : chunk.codec === "gzip" ? gunzipSync(raw) : raw;
    if (body.length !== header.field_2) throw new Error(`page body is ${body.length} bytes where the header says ${String(header.field_2)}`);
    const numValues = (header.field_5 as Record<string, number>).field_1 as number;
    const page = { view: new DataView(body.buffer, body.byteOffset, body.byteLength), offset: 0 };
    const levels = (max: number): number[] => {
      const out = new Array<number>(numValues).fill(0);
      if (max > 0) readRleBitPackedHybrid(page, bitWidth(max), out);
      return out;
    };
    const reps = levels(maxRep);
    const defs = levels(maxDef);
    pages.push({ header, numValues, reps, defs, valueBytes: body.length - page.offset });
  }
  return pages;
}
