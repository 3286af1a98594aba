import type { RowOrigin } from "./row-origin.js";
import type { ShardInfo } from "./shard-format.js";
import type { ShardedWriter } from "./sharded-writer.js";

/**
 * The shards of a split dataset (`--split`): one {@link ShardedWriter} per split, each rotating on its own and
 * named in the Hugging Face layout (`data/validation-00000-of-00001.parquet`). Every split gets a shard, an
 * empty one if no row fell in it, so a reader always finds every split the card names.
 */
export class SplitShards {
  readonly #writers = new Map<string, ShardedWriter>();

  constructor(names: readonly string[], writerOf: (split: string) => ShardedWriter) {
    for (const name of names) this.#writers.set(name, writerOf(name));
  }

  /** Rows written so far, over every split. */
  get rows(): number {
    let n = 0;
    for (const writer of this.#writers.values()) n += writer.rows;
    return n;
  }

  /** Appends a record to its split's shards (see `ShardedWriter.write`). */
  async write(record: Readonly<Record<string, unknown>>, inputBytes?: number, origin?: Pick<RowOrigin, "split">): Promise<void> {
    const split = origin?.split;
    const writer = split === undefined ? undefined : this.#writers.get(split);
    if (writer === undefined) throw new Error(`Internal error: a row for split ${JSON.stringify(split)}, not one of ${[...this.#writers.keys()].join(", ")}`);
    await writer.write(record, inputBytes);
  }

  /** Finishes every split's shards; each shard says its split. */
  async finish(): Promise<ShardInfo[]> {
    const infos: ShardInfo[] = [];
    for (const [split, writer] of this.#writers) for (const info of await writer.finish()) infos.push({ ...info, split });
    return infos;
  }

  async abort(): Promise<void> {
    for (const writer of this.#writers.values()) await writer.abort();
  }
}
