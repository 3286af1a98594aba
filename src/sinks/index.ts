export { jsonlFormat } from "./jsonl-format.js";
export { nativeParquetFormat } from "./native-parquet-format.js";
export { parquetFormat } from "./parquet-format.js";
export { shardFormatFor } from "./shard-format-for.js";

export type { JsonlCompression, JsonlOptions } from "./jsonl-format.js";
export type { NativeParquetCompression, NativeParquetOptions } from "./native-parquet-format.js";
export type { ParquetCompression, ParquetOptions } from "./parquet-format.js";
export type { ShardFormat, ShardInfo, ShardTarget, ShardWriter } from "./shard-writer.js";
