export { writeSnapshot } from "./write-snapshot.js";
export { DatasetSink } from "./dataset-sink.js";
export { DuplicateKeyError } from "./incoming.js";
export { bucketOf, DEFAULT_BUCKETS, recordHash, setHash, shardPath } from "./bucket.js";
export { LEDGER_FILE, readDataset, STATE_FILE } from "./ledger.js";

export type { ExtraFiles, SnapshotOptions, SnapshotResult } from "./write-snapshot.js";
export type { BucketLayout, DatasetFiles, DatasetSinkOptions } from "./dataset-sink.js";
export type { SnapshotRecord } from "./incoming.js";
export type { BucketState, DatasetState, LedgerEntry } from "./ledger.js";
