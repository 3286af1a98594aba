import { createHash } from "node:crypto";
import { ConfigError } from "../core/errors.js";
import { shardName } from "../output/shard-name.js";

/** Default number of shards of a snapshot dataset. */
export const DEFAULT_BUCKETS = 16;
/** Shard names carry the bucket and the total in 5 digits. */
const MAX_BUCKETS = 99_999;

/** Checks `buckets` and returns it: an integer from 1 to 99999 (shard names pad to 5 digits). */
export function checkBuckets(buckets: number): number {
  if (!Number.isSafeInteger(buckets) || buckets < 1 || buckets > MAX_BUCKETS) {
    throw new ConfigError(`Expected \`buckets\` to be an integer from 1 to ${MAX_BUCKETS}, got ${buckets}`);
  }
  return buckets;
}

/** The shard file of a bucket, relative to the dataset: `data/train-00003-of-00016.parquet` (a split's: `data/test-…`). */
export function shardPath(bucket: number, buckets: number, extension: string, split = "train"): string {
  return `data/${shardName(split, bucket, buckets, extension)}`;
}

/**
 * The set hash of a bucket: sha256 over its (key, record hash) pairs in key order. Keys are part of
 * it because they decide the row order, so equal set hashes mean byte-equal shards.
 */
export function setHash(pairs: Iterable<readonly [key: string, sha256: string]>): string {
  const hash = createHash("sha256");
  for (const pair of pairs) hash.update(`${JSON.stringify(pair)}\n`);
  return hash.digest("hex");
}

/** Orders keys by UTF-16 code units, the same on every machine and in every locale. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
