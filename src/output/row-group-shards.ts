import type { ColumnPlan } from "../parquet/column-plan.js";
import type { EncodedRowGroup } from "../parquet/encode-row-group.js";
import { FooterBuilder, PARQUET_MAGIC } from "../parquet/parquet-footer.js";
import type { ShardInfo } from "./shard-format.js";
import type { ClosedShard, ShardFiles } from "./shard-files.js";
import type { FileWriter } from "./storage.js";

interface OpenShard {
  readonly file: FileWriter;
  /** The footer, a row group's metadata added as the group is written. */
  readonly footer: FooterBuilder;
  rows: number;
}

/**
 * Parquet shards assembled from row groups encoded elsewhere (the parallel engine): `PAR1`, the groups'
 * bytes as they come, and the footer when the next shard starts. Which shard a group goes in is decided
 * by the caller with {@link ShardRotation}; names are {@link ShardFiles}'.
 */
export class RowGroupShards {
  readonly #closed: ClosedShard[] = [];
  #current: OpenShard | null = null;

  constructor(
    private readonly shards: ShardFiles,
    private readonly plan: ColumnPlan,
    private readonly createdBy: string,
  ) {}

  /**
   * Appends a row group to shard `shard` (a shard index that only grows), closing the one before it. The
   * group's bytes are written as they are (no copy) and free again once this resolves.
   */
  async append(shard: number, group: EncodedRowGroup): Promise<void> {
    while (this.shards.count <= shard) await this.#next();
    const current = this.#current as OpenShard;
    const { bytes, ...encoded } = group;
    current.footer.add({ encoded, offset: current.file.bytes });
    await current.file.write(bytes);
    current.rows += group.rows;
  }

  /** Closes the last shard (making one empty shard when there was none) and names them all. */
  async finish(): Promise<ShardInfo[]> {
    if (this.shards.count === 0) await this.#next();
    await this.#close();
    return this.shards.name(this.#closed);
  }

  /** Removes every shard file, finished or not. */
  async abort(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    await current?.file.abort().catch(() => undefined);
    await this.shards.remove();
  }

  async #next(): Promise<void> {
    await this.#close();
    const file = await this.shards.create();
    this.#current = { file, footer: new FooterBuilder(this.plan), rows: 0 };
    await file.write(PARQUET_MAGIC);
  }

  async #close(): Promise<void> {
    const shard = this.#current;
    if (shard === null) return;
    this.#current = null;
    await shard.file.write(shard.footer.bytes({ createdBy: this.createdBy }));
    this.#closed.push({ rows: shard.rows, file: await shard.file.close() });
  }
}
