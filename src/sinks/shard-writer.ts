// The shard format interface lives with the output layer that opens shards; re-exported for the formats here.
export { fileWriterOf } from "../output/shard-format.js";
export type { ShardFormat, ShardInfo, ShardTarget, ShardWriter } from "../output/shard-format.js";
