import { IoError } from "../core/errors.js";
import type { Field } from "../schema/column-type.js";
import { EncodedShards } from "./encoded-shards.js";
import type { ShardFormat, ShardInfo } from "./shard-format.js";
import { LocalFiles } from "./local-files.js";
import { ShardFiles } from "./shard-files.js";
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
 * Writes a library caller's records into rotating shards under `data/`: the engine's own shard path
 * ({@link ShardRotation}, `EncodedShards`, named by `ShardFiles`), fed records instead of encoded row groups:
 * hidden until `finish()`, then `data/train-00000-of-00003.parquet`.
 */
export class ShardedWriter {
  readonly #rotation: ShardRotation;
  readonly #shards: EncodedShards<Readonly<Record<string, unknown>>>;
  readonly #where: string;
  #state: "open" | "finished" | "aborted" = "open";
  #rows = 0;

  constructor(options: ShardedWriterOptions) {
    this.#rotation = new ShardRotation(options);
    const files = typeof options.dir === "string" ? new LocalFiles(options.dir) : options.dir;
    const { format, columns } = options;
    const shards = new ShardFiles(files, options.split ?? "train", format.extension);
    this.#shards = EncodedShards.ofFormat(shards, format, columns, (shard, record) => shard.write(record));
    this.#where = `${files.location}/data`;
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
    this.#checkOpen("write to");
    const size = (inputBytes ?? Buffer.byteLength(JSON.stringify(record))) + 1;
    await this.#shards.append(this.#rotation.place(size), record);
    this.#rows += 1;
  }

  /** Closes the last shard, gives every shard its final name and describes them. */
  async finish(): Promise<ShardInfo[]> {
    this.#checkOpen("finish");
    const infos = await this.#shards.finish();
    this.#state = "finished";
    return infos;
  }

  /** Removes every shard this writer created, finished or not. */
  async abort(): Promise<void> {
    if (this.#state === "aborted") return;
    this.#state = "aborted";
    await this.#shards.abort();
  }

  #checkOpen(doing: string): void {
    if (this.#state !== "open") throw new IoError(`Cannot ${doing} ${this.#where}: the writer is ${this.#state}`, this.#where);
  }
}
