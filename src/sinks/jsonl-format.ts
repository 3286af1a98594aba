import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { CompressStream } from "zstd-napi";
import { ConfigError, IoError } from "../errors.js";
import type { ShardFormat, ShardWriter } from "./shard-writer.js";

/** Whole-file compression of JSONL shards: `.jsonl`, `.jsonl.gz` or `.jsonl.zst`. */
export type JsonlCompression = "gzip" | "zstd" | "none";

/** Options of {@link jsonlFormat}. */
export interface JsonlOptions {
  readonly compression: JsonlCompression;
}

const EXTENSIONS: Readonly<Record<JsonlCompression, string>> = { none: ".jsonl", gzip: ".jsonl.gz", zstd: ".jsonl.zst" };
/** Lines are joined into chunks of about this size before they enter the stream. */
const CHUNK_BYTES = 64 << 10;

/** JSON Lines shards: one `JSON.stringify(record)` line per record, optionally gzip or zstd compressed. */
export function jsonlFormat(options: JsonlOptions): ShardFormat {
  const extension = EXTENSIONS[options.compression];
  if (extension === undefined) {
    throw new ConfigError(`Expected JSONL compression to be one of ${Object.keys(EXTENSIONS).join(", ")}, got ${JSON.stringify(options.compression)}`);
  }
  return {
    extension,
    description: `jsonl/${options.compression}`,
    open: (path) => JsonlShard.open(path, options.compression),
    dispose: async () => undefined,
  };
}

class JsonlShard implements ShardWriter {
  rows = 0;
  #chunk: string[] = [];
  #chunkBytes = 0;
  #state: "open" | "closed" | "aborted" = "open";

  private constructor(
    readonly path: string,
    private readonly head: Writable,
    /** Settles when the file is complete, or rejects with the first error of any stage. */
    private readonly done: Promise<void>,
  ) {}

  static async open(path: string, compression: JsonlCompression): Promise<JsonlShard> {
    const file = createWriteStream(path, { flags: "w" });
    try {
      await once(file, "open");
    } catch (error) {
      throw new IoError(`Cannot create ${path}: ${(error as Error).message}`, path, { cause: error });
    }
    const compressor = compression === "gzip" ? createGzip() : compression === "zstd" ? new CompressStream() : null;
    const done = compressor === null ? finished(file) : pipeline(compressor, file);
    // Errors surface through write() and close(); keep the rejection from going unhandled meanwhile.
    done.catch(() => undefined);
    return new JsonlShard(path, compressor ?? file, done);
  }

  async write(record: Readonly<Record<string, unknown>>, json?: string): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.path}: the shard is ${this.#state}`, this.path);
    const line = json ?? JSON.stringify(record);
    const size = Buffer.byteLength(line) + 1;
    this.#chunk.push(line, "\n");
    this.#chunkBytes += size;
    this.rows += 1;
    if (this.#chunkBytes >= CHUNK_BYTES) await this.#push();
  }

  async close(): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot close ${this.path}: the shard is ${this.#state}`, this.path);
    this.#state = "closed";
    try {
      await this.#push();
      this.head.end();
      await this.done;
    } catch (error) {
      this.head.destroy();
      await rm(this.path, { force: true });
      throw this.#ioError(error);
    }
  }

  async abort(): Promise<void> {
    this.#state = "aborted";
    this.head.destroy();
    await this.done.catch(() => undefined);
    await rm(this.path, { force: true });
  }

  /** Writes the pending chunk, waiting for the stream to drain when it is full. */
  async #push(): Promise<void> {
    if (this.#chunk.length === 0) return;
    const text = this.#chunk.join("");
    this.#chunk = [];
    this.#chunkBytes = 0;
    if (!this.head.write(text)) {
      await Promise.race([once(this.head, "drain"), this.done.then(() => Promise.reject(new Error("the stream ended early")))]);
    }
  }

  #ioError(error: unknown): IoError {
    return error instanceof IoError ? error : new IoError(`Cannot write ${this.path}: ${(error as Error).message}`, this.path, { cause: error });
  }
}
