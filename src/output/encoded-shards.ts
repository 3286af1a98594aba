import type { EncodedRowGroup } from "../parquet/encode-row-group.js";
import type { Field } from "../schema/column-type.js";
import type { ShardFormat, ShardInfo, ShardWriter } from "./shard-format.js";
import type { ClosedShard, ShardFiles } from "./shard-files.js";
import type { FileWriter, WrittenFile } from "./storage.js";

/** One shard file being fed what units encoded (Parquet row groups, or JSON lines), or a library caller's records. */
export interface EncodedShard<T = EncodedRowGroup> {
  /** The group's bytes are written as they are, and the caller's again once this resolves. */
  append(group: T): Promise<void>;
  readonly rows: number;
  close(): Promise<WrittenFile>;
  abort(): Promise<void>;
}

/**
 * Shards assembled from what the parallel engine's units encoded, or from `ShardedWriter`'s records. Which
 * shard a group goes in is decided by the caller with `ShardRotation`; names are {@link ShardFiles}';
 * `open` makes each shard's file what it is.
 */
export class EncodedShards<T = EncodedRowGroup> {
  readonly #closed: Promise<ClosedShard>[] = [];
  #current: EncodedShard<T> | null = null;
  /** The previous shard's close, left running while the next shard fills. */
  #closing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly shards: ShardFiles,
    private readonly open: (file: FileWriter) => Promise<EncodedShard<T>>,
  ) {}

  /** Shards of a shard format (`format.open`), each handed what it is fed by `append`: encoded lines, or records. */
  static ofFormat<T>(shards: ShardFiles, format: ShardFormat, columns: readonly Field[], append: (shard: ShardWriter, item: T) => Promise<void>): EncodedShards<T> {
    return new EncodedShards(shards, async (file) => {
      const shard = await format.open(file, columns);
      return {
        append: (item) => append(shard, item),
        get rows() {
          return shard.rows;
        },
        close: () => shard.close(),
        abort: () => shard.abort(),
      };
    });
  }

  /** Appends a group to shard `shard` (a shard index that only grows), closing the one before it. */
  async append(shard: number, group: T): Promise<void> {
    while (this.shards.count <= shard) await this.#next();
    await (this.#current as EncodedShard<T>).append(group);
  }

  /** Closes the last shard (making one empty shard when there was none) and names them all. */
  async finish(): Promise<ShardInfo[]> {
    if (this.shards.count === 0) await this.#next();
    await this.#close();
    return this.shards.name(await Promise.all(this.#closed));
  }

  /** Removes every shard file, finished or not. */
  async abort(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    await this.#closing.catch(() => undefined);
    await current?.abort().catch(() => undefined);
    await this.shards.remove();
  }

  async #next(): Promise<void> {
    await this.#close();
    this.#current = await this.open(await this.shards.create());
  }

  /** Starts closing the current shard; at most one close runs while the next shard fills. */
  async #close(): Promise<void> {
    const shard = this.#current;
    if (shard === null) return;
    this.#current = null;
    await this.#closing;
    const rows = shard.rows;
    const closing = shard.close().then(
      (file) => ({ rows, file }),
      async (error: unknown) => {
        await shard.abort().catch(() => undefined);
        throw error;
      },
    );
    closing.catch(() => undefined);
    this.#closed.push(closing);
    this.#closing = closing;
  }
}
