export { writeSnapshot } from "./write-snapshot.js";
export { DuplicateKeyError } from "./incoming.js";
export { bucketOf, DEFAULT_BUCKETS, recordHash, setHash, shardPath } from "./bucket.js";
export { LEDGER_FILE, readDataset, STATE_FILE } from "./ledger.js";

export type { ExtraFiles, SnapshotOptions, SnapshotResult } from "./write-snapshot.js";
export type { SnapshotRecord } from "./incoming.js";
export type { BucketState, DatasetState, LedgerEntry } from "./ledger.js";
