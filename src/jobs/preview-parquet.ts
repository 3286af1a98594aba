import { gunzipSync, zstdDecompressSync } from "node:zlib";
import { asyncBufferFromFile, type AsyncBuffer, parquetMetadataAsync, parquetReadObjects, parquetSchema } from "hyparquet";
import type { Compressors } from "hyparquet";
import { ioStep } from "../core/io-step.js";
import { parquetTypeText } from "./parquet-type-text.js";
import { plainValue } from "./plain-value.js";
import type { ShardPreview } from "./preview-jsonl.js";
import { readBytes } from "../http/body-bytes.js";
import type { ShardInput } from "./shard-input.js";

/** hyparquet decodes snappy itself; zstd and gzip pages go through node:zlib, as the writer's do. */
const COMPRESSORS: Compressors = {
  ZSTD: (input, outputLength) => zstdDecompressSync(input, { chunkSize: Math.max(64, outputLength) }),
  GZIP: (input) => gunzipSync(input),
};

/** The schema of the first shard, the first `limit` rows of the shards in order, and their row count (from the footers). */
export async function previewParquet(files: readonly (string | ShardInput)[], limit: number): Promise<ShardPreview> {
  let columns: ShardPreview["columns"] = [];
  const rows: Record<string, unknown>[] = [];
  let totalRows = 0;
  for (const [i, input] of files.entries()) {
    const path = typeof input === "string" ? input : input.name;
    await ioStep(path, "read the Parquet shard", async () => {
      // Parquet is read from its footer back: a local file where it lies, a stored shard fetched whole first.
      const file = typeof input === "string" ? await asyncBufferFromFile(input) : bufferOf(await readBytes(await input.read()));
      const metadata = await parquetMetadataAsync(file);
      if (i === 0) columns = parquetSchema(metadata).children.map((c) => ({ name: c.element.name, type: parquetTypeText(c) }));
      const fileRows = Number(metadata.num_rows);
      const wanted = Math.min(limit - rows.length, fileRows);
      if (wanted > 0) {
        const read = await parquetReadObjects({ file, metadata, rowStart: 0, rowEnd: wanted, compressors: COMPRESSORS });
        for (const row of read) rows.push(plainValue(row) as Record<string, unknown>);
      }
      totalRows += fileRows;
    });
  }
  return { columns, rows, totalRows };
}

/** A shard read whole, as hyparquet's AsyncBuffer. */
function bufferOf(bytes: Buffer): AsyncBuffer {
  const whole = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { byteLength: whole.byteLength, slice: (start, end) => whole.slice(start, end) };
}
