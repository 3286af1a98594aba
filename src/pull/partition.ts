import { createHash } from "node:crypto";
import { ConfigError } from "../core/errors.js";

/** Job k of N: this job keeps the identifiers whose hash share is `index`. */
export interface Partition {
  readonly index: number;
  readonly count: number;
}

/** Throws ConfigError naming the bad value unless `count` is a whole number from 1 up and `index` is in 0..count-1. */
export function checkPartition(partition: Partition): void {
  const { index, count } = partition;
  if (!Number.isSafeInteger(count) || count < 1) throw new ConfigError(`Expected \`partition.count\` to be a whole number from 1 up, got ${JSON.stringify(count)}`);
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) {
    throw new ConfigError(`Expected \`partition.index\` to be a whole number from 0 to ${count - 1}, got ${JSON.stringify(index)}`);
  }
}

/**
 * The share an identifier falls in: sha256 of its UTF-8 bytes, read as a big-endian integer, mod
 * `count`. Identifiers are opaque, so they are hashed, never parsed; the hash spreads them evenly.
 */
export function shareOf(id: string, count: number): number {
  const hex = createHash("sha256").update(id, "utf8").digest("hex");
  return Number(BigInt(`0x${hex}`) % BigInt(count));
}

/** Whether `id` belongs to this job; every identifier does when there is no partition. */
export function inPartition(id: string, partition: Partition | undefined): boolean {
  return partition === undefined || partition.count === 1 || shareOf(id, partition.count) === partition.index;
}
