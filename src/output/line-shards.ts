import type { Field } from "../schema/column-type.js";
import { EncodedShards } from "./encoded-shards.js";
import type { ShardFormat } from "./shard-format.js";
import type { ShardFiles } from "./shard-files.js";

/**
 * JSON Lines shards fed lines encoded elsewhere (the parallel engine's units: a "row group" of lines, no
 * column chunks), in the plan's JSONL shard format (`format`, its whole-file compression too).
 */
export function lineShards(shards: ShardFiles, format: ShardFormat, columns: readonly Field[]): EncodedShards {
  return EncodedShards.ofFormat(shards, format, columns, (shard, lines) => {
    if (shard.writeLines === undefined) throw new Error(`Internal error: ${format.description} shards take no encoded lines`);
    return shard.writeLines(lines.bytes, lines.rows);
  });
}
