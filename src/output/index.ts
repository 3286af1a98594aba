export { LocalStorage } from "./local-storage.js";
export { LocalFiles } from "./local-files.js";
export { ShardedWriter } from "./sharded-writer.js";
export { RowGroupShards } from "./row-group-shards.js";
export { ShardRotation } from "./shard-rotation.js";
export { QuarantineWriter } from "./quarantine-writer.js";
export { datasetCard } from "./dataset-card.js";
export { openStaging, recoverStaging } from "./local-staging.js";
export { lockOutput } from "./lock-output.js";
// S3Storage itself is loaded by storageFor on demand, so importing this folder never loads the AWS SDK.
export { outputLocation, storageFor } from "./storage-for.js";
export { ObjectStorage } from "./object-storage.js";
export { MemoryObjectStore } from "./memory-object-store.js";

export type { FileWriter, Files, Lock, PublishHook, Staging, Storage, StoredFile, WrittenFile } from "./storage.js";
export type { ShardedWriterOptions } from "./sharded-writer.js";
export type { ShardLimits } from "./shard-rotation.js";
export type { QuarantineEntry } from "./quarantine-writer.js";
export type { DatasetCardOptions } from "./dataset-card.js";
export type { LocalStaging, Recovery } from "./local-staging.js";
export type { LocalStorageOptions } from "./local-storage.js";
export type { SnapshotGrace } from "./local-snapshots.js";
export type { OutputLocation } from "./storage-for.js";
export type { S3Storage, S3StorageOptions } from "./s3-storage.js";
export type { ObjectStorageOptions } from "./object-storage.js";
export type { S3ClientOptions } from "./s3-client.js";
export type { ObjectStaging } from "./object-staging.js";
export type { ObjectStore, ObjectHead, ObjectEntry, ObjectUpload } from "./object-store.js";
