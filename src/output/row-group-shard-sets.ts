import type { EncodedRowGroup } from "../parquet/encode-row-group.js";
import type { EncodedShards } from "./encoded-shards.js";
import type { ShardInfo } from "./shard-format.js";

/**
 * The parallel engine's shards: one {@link EncodedShards} per split (`--split`, each named in the Hugging
 * Face layout, `data/validation-00000-of-00001.parquet`, and each shard saying its split), or the one set
 * of a run that does not split. Every split gets a shard, an empty one
 * if no row fell in it, so a reader always finds every split the card names.
 */
export class RowGroupShardSets {
  constructor(
    /** Parquet shards (`DatasetSink.rowGroups`), or JSON Lines ones (`lineShards`). */
    private readonly sets: readonly EncodedShards[],
    /** The sets' split names, in order; null: one set, whose shards say no split. */
    private readonly splits: readonly string[] | null,
  ) {}

  /** Appends a row group to shard `shard` of set `set` (see `EncodedShards.append`). */
  append(set: number, shard: number, group: EncodedRowGroup): Promise<void> {
    const shards = this.sets[set];
    if (shards === undefined) throw new Error(`Internal error: a row group for shard set ${set} of ${this.sets.length}`);
    return shards.append(shard, group);
  }

  /** Finishes every set's shards, in order. */
  async finish(): Promise<ShardInfo[]> {
    const infos: ShardInfo[] = [];
    for (const [i, shards] of this.sets.entries()) {
      const split = this.splits?.[i];
      for (const info of await shards.finish()) infos.push(split === undefined ? info : { ...info, split });
    }
    return infos;
  }

  async abort(): Promise<void> {
    for (const shards of this.sets) await shards.abort();
  }
}
