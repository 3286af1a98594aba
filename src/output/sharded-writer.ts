import { IoError } from "../core/errors.js";
import type { Field } from "../schema/column-type.js";
import type { ShardFormat, ShardInfo, ShardWriter } from "./shard-format.js";
import { LocalFiles } from "./local-files.js";
import { ShardFiles } from "./shard-files.js";
import type { ClosedShard } from "./shard-files.js";
import { ShardRotation } from "./shard-rotation.js";
import type { ShardLimits } from "./shard-rotation.js";
import type { Files } from "./storage.js";

/** Options of {@link ShardedWriter}. */
export interface ShardedWriterOptions extends ShardLimits {
  /** The dataset: a local directory, or a storage's files (a staging); shards go to its `data/` folder. */
  readonly dir: string | Files;
  readonly format: ShardFormat;
  readonly columns: readonly Field[];
  /** Split name used in file names. Default "train". */
  readonly split?: string;
}

/**
 * Writes a library caller's records (a public writer: the engine writes encoded row groups, `EncodedShards`)
 * into rotating shards under `data/`, rotated by {@link ShardRotation}
 * and named by `ShardFiles`: hidden until `finish()`, then `data/train-00000-of-00003.parquet`.
 */
export class ShardedWriter {
  readonly #options: ShardedWriterOptions;
  readonly #files: ShardFiles;
  readonly #rotation: ShardRotation;
  readonly #writers: ShardWriter[] = [];
  readonly #closed: Promise<ClosedShard>[] = [];
  /** The previous shard's close, left running while the next shard fills. */
  #closing: Promise<unknown> = Promise.resolve();
  #state: "open" | "finished" | "aborted" = "open";
  #rows = 0;

  constructor(options: ShardedWriterOptions) {
    this.#rotation = new ShardRotation(options);
    const files = typeof options.dir === "string" ? new LocalFiles(options.dir) : options.dir;
    this.#files = new ShardFiles(files, options.split ?? "train", options.format.extension);
    this.#options = options;
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
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.#where()}: the writer is ${this.#state}`, this.#where());
    const json = inputBytes === undefined ? JSON.stringify(record) : undefined;
    const size = (json === undefined ? (inputBytes as number) : Buffer.byteLength(json)) + 1;
    const shard = this.#rotation.place(size);
    if (shard === this.#writers.length) {
      await this.#closeCurrent();
      await this.#openNext();
    }
    await (this.#writers[shard] as ShardWriter).write(record, json);
    this.#rows += 1;
  }

  /** Closes the last shard, gives every shard its final name and describes them. */
  async finish(): Promise<ShardInfo[]> {
    if (this.#state !== "open") throw new IoError(`Cannot finish ${this.#where()}: the writer is ${this.#state}`, this.#where());
    // Readers still get the schema from one empty shard.
    if (this.#writers.length === 0) await this.#openNext();
    await this.#closeCurrent();
    const closed = await Promise.all(this.#closed);
    this.#state = "finished";
    return this.#files.name(closed);
  }

  /** Removes every shard this writer created, finished or not. */
  async abort(): Promise<void> {
    if (this.#state === "aborted") return;
    this.#state = "aborted";
    await this.#closing.catch(() => undefined);
    for (const writer of this.#writers) await writer.abort().catch(() => undefined);
    await this.#files.remove();
  }

  async #openNext(): Promise<void> {
    const file = await this.#files.create();
    this.#writers.push(await this.#options.format.open(file, this.#options.columns));
  }

  /** Starts closing the current shard; at most one close runs while the next shard fills. */
  async #closeCurrent(): Promise<void> {
    const writer = this.#writers[this.#closed.length];
    if (writer === undefined) return;
    await this.#closing;
    const rows = writer.rows;
    const closing = writer.close().then((file) => ({ rows, file }));
    closing.catch(() => undefined);
    this.#closed.push(closing);
    this.#closing = closing;
  }

  #where(): string {
    return `${typeof this.#options.dir === "string" ? this.#options.dir : this.#options.dir.location}/data`;
  }
}
