import { ConfigError } from "../core/errors.js";
import { jsonlFormat } from "./jsonl-format.js";
import { nativeParquetFormat } from "./native-parquet-format.js";
import type { ShardFormat } from "../output/shard-format.js";

/**
 * The shard format for an output kind and codec, as `--to` and `--compression` (or a pipeline's `output`) name
 * them. Parquet is our own encoder for every codec, as in the parallel engine.
 */
export function shardFormatFor(to: "parquet" | "jsonl", compression: "zstd" | "gzip" | "snappy" | "none"): ShardFormat {
  if (to === "parquet") return nativeParquetFormat({ compression });
  if (compression === "snappy") throw new ConfigError(`Compression "snappy" is not available for jsonl: expected zstd, gzip or none`);
  return jsonlFormat({ compression });
}
