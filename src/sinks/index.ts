export { datasetCard } from "./dataset-card.js";
export { jsonlFormat } from "./jsonl-format.js";
export { parquetFormat } from "./parquet-format.js";
export { ShardedWriter } from "./sharded-writer.js";
export { QuarantineWriter } from "./quarantine-writer.js";
export { lockOutput } from "./output-lock.js";
export { openStaging, recoverStaging } from "./staging.js";

export type { DatasetCardOptions } from "./dataset-card.js";
export type { JsonlCompression, JsonlOptions } from "./jsonl-format.js";
export type { ParquetCompression, ParquetOptions } from "./parquet-format.js";
export type { ShardFormat, ShardInfo, ShardWriter } from "./shard-writer.js";
export type { ShardedWriterOptions } from "./sharded-writer.js";
export type { QuarantineEntry } from "./quarantine-writer.js";
export type { PublishHook, Recovery, Staging } from "./staging.js";
