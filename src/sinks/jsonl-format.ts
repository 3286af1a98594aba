import { stringifyExact } from "../core/exact-json.js";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { createGzip, createZstdCompress } from "node:zlib";
import { ConfigError, IoError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import { fileWritable } from "../output/file-writable.js";
import type { FileWriter, WrittenFile } from "../output/storage.js";
import { fileWriterOf } from "../output/shard-format.js";
import type { ShardFormat, ShardWriter } from "../output/shard-format.js";
import type { Field } from "../schema/column-type.js";
import { tabularRow } from "./tabular-row.js";

/** Whole-file compression of JSONL shards: `.jsonl`, `.jsonl.gz` or `.jsonl.zst`. */
export type JsonlCompression = "gzip" | "zstd" | "none";

/** Options of {@link jsonlFormat}. */
export interface JsonlOptions {
  readonly compression: JsonlCompression;
}

const EXTENSIONS: Readonly<Record<JsonlCompression, string>> = { none: ".jsonl", gzip: ".jsonl.gz", zstd: ".jsonl.zst" };
/** Lines are joined into chunks of about this size before they enter the stream. */
const CHUNK_BYTES = 64 << 10;

/**
 * JSON Lines shards, optionally gzip or zstd compressed: one line per record, shaped as the Parquet row
 * (`tabularRow`: every column, maps as `{key, value}` lists, json values as JSON text).
 */
export function jsonlFormat(options: JsonlOptions): ShardFormat {
  const extension = EXTENSIONS[options.compression];
  if (extension === undefined) {
    throw new ConfigError(`Expected JSONL compression to be one of ${Object.keys(EXTENSIONS).join(", ")}, got ${JSON.stringify(options.compression)}`);
  }
  return {
    extension,
    description: `jsonl/${options.compression}`,
    open: async (target, columns) => JsonlShard.open(await fileWriterOf(target), options.compression, columns),
    dispose: async () => undefined,
  };
}

class JsonlShard implements ShardWriter {
  rows = 0;
  #chunk: string[] = [];
  #chunkBytes = 0;
  #state: "open" | "closed" | "aborted" = "open";

  private constructor(
    private readonly file: FileWriter,
    private readonly head: Writable,
    /** Settles when every byte is in the file, or rejects with the first error of any stage. */
    private readonly done: Promise<void>,
    private readonly columns: readonly Field[],
  ) {}

  get path(): string {
    return this.file.name;
  }

  static open(file: FileWriter, compression: JsonlCompression, columns: readonly Field[]): JsonlShard {
    const out = fileWritable(file);
    const compressor = compression === "gzip" ? createGzip() : compression === "zstd" ? createZstdCompress() : null;
    const done = compressor === null ? finished(out) : pipeline(compressor, out);
    // Errors surface through write() and close(); keep the rejection from going unhandled meanwhile.
    done.catch(() => undefined);
    return new JsonlShard(file, compressor ?? out, done, columns);
  }

  async write(record: Readonly<Record<string, unknown>>): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.path}: the shard is ${this.#state}`, this.path);
    const line = stringifyExact(tabularRow(this.columns, record));
    const size = Buffer.byteLength(line) + 1;
    this.#chunk.push(line, "\n");
    this.#chunkBytes += size;
    this.rows += 1;
    if (this.#chunkBytes >= CHUNK_BYTES) await this.#push();
  }

  async writeLines(lines: Uint8Array, rows: number): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.path}: the shard is ${this.#state}`, this.path);
    await this.#push();
    this.rows += rows;
    // Copied: the stream may hold a chunk past this call, and the caller's memory is reused.
    if (!this.head.write(Buffer.from(lines))) await this.#drained();
  }

  async close(): Promise<WrittenFile> {
    if (this.#state !== "open") throw new IoError(`Cannot close ${this.path}: the shard is ${this.#state}`, this.path);
    this.#state = "closed";
    return ioStep(this.path, "write", async () => {
      try {
        await this.#push();
        this.head.end();
        await this.done;
        return await this.file.close();
      } catch (error) {
        this.head.destroy();
        await this.file.abort();
        throw error;
      }
    });
  }

  async abort(): Promise<void> {
    this.#state = "aborted";
    this.head.destroy();
    await this.done.catch(() => undefined);
    await this.file.abort();
  }

  /** Writes the pending chunk, waiting for the stream to drain when it is full. */
  async #push(): Promise<void> {
    if (this.#chunk.length === 0) return;
    const text = this.#chunk.join("");
    this.#chunk = [];
    this.#chunkBytes = 0;
    if (!this.head.write(text)) await this.#drained();
  }

  async #drained(): Promise<void> {
    await Promise.race([once(this.head, "drain"), this.done.then(() => Promise.reject(new Error("the stream ended early")))]);
  }
}
