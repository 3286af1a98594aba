import { createHash } from "node:crypto";
import type { Files } from "../output/storage.js";
import { parquetMetadataAsync, type AsyncBuffer } from "hyparquet";
import { compressionFromName, decompress } from "../sources/decompress.js";

/** What one pass over a stored file found. */
export interface FileFacts {
  readonly bytes: number;
  readonly sha256: string;
  /** Rows: the Parquet footer's count, or the lines of a (decompressed) JSONL file. */
  readonly rows: number;
  /** Why the rows could not be counted (a torn footer, a corrupt .gz): then `rows` is 0. */
  readonly unreadable: string | null;
}

/** The tail kept while streaming: footers of our shards are a few KiB; a larger one costs a second read. */
const TAIL_BYTES = 1 << 20;

/**
 * Streams `path` once through `files` (so any storage works), hashing it and counting its rows.
 * Null when there is no such file.
 */
export async function readStoredFile(files: Files, path: string): Promise<FileFacts | null> {
  const stream = await files.read(path);
  if (stream === null) return null;
  const hash = createHash("sha256");
  let bytes = 0;
  const tail: Buffer[] = [];
  let tailBytes = 0;
  let head: Buffer | null = null;
  async function* tap(): AsyncIterable<Buffer> {
    for await (const chunk of stream!) {
      const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      hash.update(buffer);
      bytes += buffer.length;
      head ??= Buffer.from(buffer.subarray(0, 4));
      tail.push(buffer);
      tailBytes += buffer.length;
      while (tail.length > 1 && tailBytes - tail[0]!.length >= TAIL_BYTES) tailBytes -= tail.shift()!.length;
      yield buffer;
    }
  }

  let rows = 0;
  let unreadable: string | null = null;
  if (path.endsWith(".parquet")) {
    for await (const _ of tap()) void _;
    try {
      rows = await parquetRows(files, path, head, Buffer.concat(tail), bytes);
    } catch (error) {
      unreadable = `not a readable Parquet file: ${(error as Error).message}`;
    }
  } else {
    const source = tap();
    try {
      let last = 0x0a;
      for await (const chunk of decompress(source, { name: path, compression: compressionFromName(path) ?? "none" })) {
        for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) rows++;
        if (chunk.length > 0) last = chunk[chunk.length - 1]!;
      }
      if (last !== 0x0a) rows++;
    } catch (error) {
      unreadable = `cannot count its lines: ${(error as Error).message}`;
      rows = 0;
      // The decompressor stopped early: finish the hash with a second read.
      return { ...(await hashOnly(files, path)), rows, unreadable };
    }
  }
  return { bytes, sha256: hash.digest("hex"), rows, unreadable };
}

/** The rows a Parquet file's footer declares, read by the footer reader `inspect` uses, from the kept tail. */
async function parquetRows(files: Files, path: string, head: Buffer | null, tail: Buffer, size: number): Promise<number> {
  if (head === null || size < 12 || head.toString("latin1") !== "PAR1") throw new Error("it does not start with the Parquet magic PAR1");
  const tailStart = size - tail.length;
  const file: AsyncBuffer = {
    byteLength: size,
    // A copy of exactly the bytes asked for: a Buffer's own ArrayBuffer may be a shared pool's.
    slice: async (start, end = size) => new Uint8Array(start >= tailStart ? tail.subarray(start - tailStart, end - tailStart) : await readRange(files, path, start, end)).buffer,
  };
  return Number((await parquetMetadataAsync(file, { initialFetchSize: tail.length })).num_rows);
}

/** Bytes `start..end` of a stored file, read again: a footer larger than the kept tail. */
async function readRange(files: Files, path: string, start: number, end: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let at = 0;
  for await (const chunk of (await files.read(path)) ?? []) {
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (at + buffer.length > start && at < end) parts.push(buffer.subarray(Math.max(0, start - at), end - at));
    at += buffer.length;
  }
  return Buffer.concat(parts);
}

async function hashOnly(files: Files, path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of (await files.read(path)) ?? []) {
    hash.update(chunk);
    bytes += chunk.byteLength;
  }
  return { bytes, sha256: hash.digest("hex") };
}
