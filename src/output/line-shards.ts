import type { Field } from "../schema/column-type.js";
import { EncodedShards } from "./encoded-shards.js";
import type { ShardFormat } from "./shard-format.js";
import type { ShardFiles } from "./shard-files.js";

/**
 * JSON Lines shards fed lines encoded elsewhere (the parallel engine's units: a "row group" of lines, no
 * column chunks), in the plan's JSONL shard format (`format`, its whole-file compression too).
 */
export function lineShards(shards: ShardFiles, format: ShardFormat, columns: readonly Field[]): EncodedShards {
  return new EncodedShards(shards, async (file) => {
    const shard = await format.open(file, columns);
    const { writeLines } = shard;
    if (writeLines === undefined) throw new Error(`Internal error: ${format.description} shards take no encoded lines`);
    return {
      append: (lines) => writeLines.call(shard, lines.bytes, lines.rows),
      get rows() {
        return shard.rows;
      },
      close: () => shard.close(),
      abort: () => shard.abort(),
    };
  });
}
