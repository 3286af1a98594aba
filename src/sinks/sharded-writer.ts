import { mkdir, readdir, rename, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError, IoError } from "../errors.js";
import type { Field } from "../schema/column-type.js";
import type { ShardFormat, ShardInfo, ShardWriter } from "./shard-writer.js";
import { partialShardName, shardName } from "./shard-name.js";
import { syncDir } from "./staging.js";
import { syncAndHash } from "./sync-and-hash.js";

/** Options of {@link ShardedWriter}. */
export interface ShardedWriterOptions {
  /** The dataset directory; shards go to its `data/` folder. */
  readonly dir: string;
  readonly format: ShardFormat;
  readonly columns: readonly Field[];
  /** Split name used in file names. Default "train". */
  readonly split?: string;
  /** Most rows per shard (`Infinity` for no limit). */
  readonly maxRows: number;
  /**
   * Most bytes per shard (`Infinity` for no limit), measured on the records' input lines (or their JSON
   * text when `write` is not told their size); a larger record gets a shard alone.
   */
  readonly maxBytes: number;
}

interface Shard {
  /** Absolute path of the hidden temporary name the shard is written under. */
  readonly partial: string;
  writer: ShardWriter | null;
}

/**
 * Writes records into rotating shards under `dir/data/`, named in the Hugging Face layout
 * `data/train-00000-of-00003.parquet` once the total is known. Until `finish()` every shard has a
 * hidden name (`data/.train-00000.parquet.partial`), which no reader's `train-*` or `*.parquet` pattern matches.
 */
export class ShardedWriter {
  readonly #options: ShardedWriterOptions;
  readonly #split: string;
  readonly #dataDir: string;
  readonly #shards: Shard[] = [];
  /** The previous shard's close, left running while the next shard fills. */
  #closing: Promise<void> | null = null;
  #started = false;
  #state: "open" | "finished" | "aborted" = "open";
  readonly #published: string[] = [];
  #rows = 0;
  /** What rotation measures of the current shard. */
  #shardBytes = 0;

  constructor(options: ShardedWriterOptions) {
    this.#split = options.split ?? "train";
    if (!/^\w+(\.\w+)*$/.test(this.#split)) {
      throw new ConfigError(`Expected the split name to be letters, digits and "_" (dot-separated), got ${JSON.stringify(this.#split)}`);
    }
    for (const key of ["maxRows", "maxBytes"] as const) {
      const n = options[key];
      if (n !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(n) && n >= 1)) {
        throw new ConfigError(`Expected \`${key}\` to be an integer from 1 and up, or Infinity, got ${n}`);
      }
    }
    this.#options = options;
    this.#dataDir = join(options.dir, "data");
  }

  /** Records written so far, over all shards. */
  get rows(): number {
    return this.#rows;
  }

  /**
   * Appends a record. `inputBytes`, when given, is the length of the line it was read from, which is what
   * rotation then measures (the same measure the parallel engine uses); otherwise its JSON text is measured.
   */
  async write(record: Readonly<Record<string, unknown>>, inputBytes?: number): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.#dataDir}: the writer is ${this.#state}`, this.#dataDir);
    const json = inputBytes === undefined ? JSON.stringify(record) : undefined;
    const size = (json === undefined ? (inputBytes as number) : Buffer.byteLength(json)) + 1;
    let writer = this.#shards.at(-1)?.writer ?? null;
    const { maxRows, maxBytes } = this.#options;
    if (writer !== null && writer.rows > 0 && (writer.rows + 1 > maxRows || this.#shardBytes + size > maxBytes)) {
      await this.#closeCurrent();
      writer = null;
    }
    if (writer === null) {
      writer = await this.#openNext();
      this.#shardBytes = 0;
    }
    await writer.write(record, json);
    this.#shardBytes += size;
    this.#rows += 1;
  }

  /** Closes the last shard, gives every shard its final name and describes them. */
  async finish(): Promise<ShardInfo[]> {
    if (this.#state !== "open") throw new IoError(`Cannot finish ${this.#dataDir}: the writer is ${this.#state}`, this.#dataDir);
    // Readers still get the schema from one empty shard.
    if (this.#shards.length === 0) await this.#openNext();
    await this.#closeCurrent();
    await this.#closing;
    this.#state = "finished";
    const { extension } = this.#options.format;
    const total = this.#shards.length;
    const infos: ShardInfo[] = [];
    for (const [i, shard] of this.#shards.entries()) {
      const name = shardName(this.#split, i, total, extension);
      const { bytes, sha256 } = await syncAndHash(shard.partial);
      const target = join(this.#dataDir, name);
      await rename(shard.partial, target);
      this.#published.push(target);
      infos.push({ path: `data/${name}`, rows: shard.writer?.rows ?? 0, bytes, sha256 });
    }
    await syncDir(this.#dataDir);
    return infos;
  }

  /** Removes every shard this writer created, finished or not. */
  async abort(): Promise<void> {
    if (this.#state === "aborted") return;
    this.#state = "aborted";
    await this.#closing?.catch(() => undefined);
    for (const shard of this.#shards) {
      await shard.writer?.abort().catch(() => undefined);
      await rm(shard.partial, { force: true });
    }
    for (const path of this.#published) await rm(path, { force: true });
    // Only removes data/ when nothing else is in it.
    if (this.#started) await rmdir(this.#dataDir).catch(() => undefined);
  }

  async #openNext(): Promise<ShardWriter> {
    await this.#start();
    const partial = join(this.#dataDir, partialShardName(this.#split, this.#shards.length, this.#options.format.extension));
    const shard: Shard = { partial, writer: null };
    this.#shards.push(shard);
    shard.writer = await this.#options.format.open(partial, this.#options.columns);
    return shard.writer;
  }

  /** Starts closing the current shard; at most one close runs while the next shard fills. */
  async #closeCurrent(): Promise<void> {
    const writer = this.#shards.at(-1)?.writer;
    if (writer === undefined || writer === null) return;
    await this.#closing;
    const closing = writer.close();
    closing.catch(() => undefined);
    this.#closing = closing;
  }

  async #start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    try {
      await mkdir(this.#dataDir, { recursive: true });
    } catch (error) {
      throw new IoError(`Cannot create ${this.#dataDir}: ${(error as Error).message}`, this.#dataDir, { cause: error });
    }
    const clash = (await readdir(this.#dataDir)).find((name) => name.startsWith(`${this.#split}-`) || name.startsWith(`.${this.#split}-`));
    if (clash !== undefined) {
      throw new IoError(`${this.#dataDir} already holds shards of split "${this.#split}" (${clash}): write into an empty directory`, this.#dataDir);
    }
  }
}
