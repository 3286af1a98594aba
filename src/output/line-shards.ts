import type { Field } from "../schema/column-type.js";
import type { EncodedRowGroup } from "../parquet/encode-row-group.js";
import type { ShardFormat, ShardInfo, ShardWriter } from "./shard-format.js";
import type { ClosedShard, ShardFiles } from "./shard-files.js";

/**
 * JSON Lines shards fed lines encoded elsewhere (the unit engine's: a "row group" of lines, no column chunks),
 * the twin of `RowGroupShards`: which shard a chunk goes in is decided by the caller with `ShardRotation`;
 * names are {@link ShardFiles}'; the format (and its whole-file compression) is the stages' JSONL one.
 */
export class LineShards {
  readonly #closed: ClosedShard[] = [];
  #current: ShardWriter | null = null;

  constructor(
    private readonly shards: ShardFiles,
    private readonly format: ShardFormat,
    private readonly columns: readonly Field[],
  ) {}

  /** Appends a chunk of lines to shard `shard` (a shard index that only grows), closing the one before it. */
  async append(shard: number, lines: EncodedRowGroup): Promise<void> {
    while (this.shards.count <= shard) await this.#next();
    const current = this.#current as ShardWriter;
    if (current.writeLines === undefined) throw new Error(`Internal error: ${this.format.description} shards take no encoded lines`);
    await current.writeLines(lines.bytes, lines.rows);
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
    await current?.abort().catch(() => undefined);
    await this.shards.remove();
  }

  async #next(): Promise<void> {
    await this.#close();
    this.#current = await this.format.open(await this.shards.create(), this.columns);
  }

  async #close(): Promise<void> {
    const shard = this.#current;
    if (shard === null) return;
    this.#current = null;
    const rows = shard.rows;
    this.#closed.push({ rows, file: await shard.close() });
  }
}
