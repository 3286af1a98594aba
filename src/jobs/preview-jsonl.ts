import { ioStep } from "../core/io-step.js";
import { compressionFromName, decompress } from "../sources/decompress.js";
import { localShard, type ShardInput } from "./shard-input.js";

/** What `inspect` shows of some shards: the columns, the first rows, and how many rows they hold. */
export interface ShardPreview {
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly rows: readonly Record<string, unknown>[];
  readonly totalRows: number;
}

/**
 * The first `limit` rows of JSONL shards (plain, .gz or .zst) and their line count; the columns are the
 * keys of the first row, typed from its values, as JSON has no schema.
 */
export async function previewJsonl(files: readonly (string | ShardInput)[], limit: number): Promise<ShardPreview> {
  const rows: Record<string, unknown>[] = [];
  let totalRows = 0;
  for (const input of files) {
    const shard = typeof input === "string" ? localShard(input) : input;
    const path = shard.name;
    await ioStep(path, "read the JSONL shard", async () => {
      let rest = "";
      const decoder = new TextDecoder();
      const take = (line: string) => {
        if (line === "") return;
        totalRows += 1;
        if (rows.length < limit) rows.push(JSON.parse(line) as Record<string, unknown>);
      };
      for await (const chunk of decompress(buffers(await shard.read()), { name: path, compression: compressionFromName(path) })) {
        const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
        rest = lines.pop() ?? "";
        lines.forEach(take);
      }
      take(rest + decoder.decode());
    });
  }
  const first = rows[0] ?? {};
  return { columns: Object.entries(first).map(([name, value]) => ({ name, type: jsonType(value) })), rows, totalRows };
}

/** A JSON value's type in the notation of Parquet columns (`parquetTypeText`). */
function jsonType(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "string") return "VARCHAR";
  if (typeof value === "boolean") return "BOOLEAN";
  if (typeof value === "number") return Number.isInteger(value) ? "BIGINT" : "DOUBLE";
  if (Array.isArray(value)) return `${value.length === 0 ? "NULL" : jsonType(value[0])}[]`;
  return `STRUCT(${Object.entries(value as object).map(([k, v]) => `${k} ${jsonType(v)}`).join(", ")})`;
}

async function* buffers(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Buffer> {
  for await (const chunk of chunks) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
