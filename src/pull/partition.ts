import { createHash, createHmac } from "node:crypto";
import { ConfigError } from "../core/errors.js";
import { wholeOption } from "../core/whole-option.js";

/** What a partition shares out: runs, or scenarios with all their runs (DPO pairs always go by scenario). */
export type PartitionBy = "run" | "scenario";

/** Job k of N: this job keeps the identifiers whose hash share is `index`. */
export interface Partition {
  readonly index: number;
  readonly count: number;
  /** Default "run". */
  readonly by?: PartitionBy;
}

/**
 * The key of a scenario's share. Keyed so that a share never lines up with any other hash of the same
 * opaque id (the split's HMAC has its own seed): which part a scenario lands in says nothing about its split.
 */
const SCENARIO_KEY = "evalshard-partition-1";
const HORNER_MAX_COUNT = Math.floor(Number.MAX_SAFE_INTEGER / 256);

/** Throws ConfigError naming the bad value unless `count` is a whole number from 1 up and `index` is in 0..count-1. */
export function checkPartition(partition: Partition): void {
  const { index, count } = partition;
  wholeOption("partition.count", count, 1);
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) {
    throw new ConfigError(`Expected \`partition.index\` to be a whole number from 0 to ${count - 1}, got ${JSON.stringify(index)}`);
  }
  if (partition.by !== undefined && partition.by !== "run" && partition.by !== "scenario") {
    throw new ConfigError(`Expected \`partition.by\` to be "run" or "scenario", got ${JSON.stringify(partition.by)}`);
  }
}

/**
 * The share an identifier falls in: sha256 of its UTF-8 bytes, read as a big-endian integer, mod
 * `count`. Identifiers are opaque, so they are hashed, never parsed; the hash spreads them evenly. A run's
 * part of a partitioned pull, and a key's bucket in a nightly dataset (dataset/incoming.ts).
 */
export function shareOf(id: string, count: number): number {
  return shareOfDigest(createHash("sha256").update(id, "utf8").digest(), count);
}

/** The share of a scenario id: HMAC-SHA256 under {@link SCENARIO_KEY}, mod `count`. */
export function scenarioShareOf(scenarioId: string, count: number): number {
  return shareOfDigest(createHmac("sha256", SCENARIO_KEY).update(scenarioId, "utf8").digest(), count);
}

/**
 * The digest as a big-endian integer, mod `count`, a byte at a time (Horner): the same share as a BigInt of
 * the whole digest, without one per listed run. Exact while `count * 256` is a safe integer (above, BigInt).
 */
function shareOfDigest(digest: Buffer, count: number): number {
  if (count > HORNER_MAX_COUNT) return Number(BigInt(`0x${digest.toString("hex")}`) % BigInt(count));
  let rest = 0;
  for (const byte of digest) rest = (rest * 256 + byte) % count;
  return rest;
}

/** Whether the run `id` belongs to this job; every identifier does when there is no partition. */
export function inPartition(id: string, partition: Partition | undefined): boolean {
  return partition === undefined || partition.count === 1 || shareOf(id, partition.count) === partition.index;
}

/** Whether the scenario `scenarioId` (and so each of its runs) belongs to this job. */
export function inScenarioPartition(scenarioId: string, partition: Partition | undefined): boolean {
  return partition === undefined || partition.count === 1 || scenarioShareOf(scenarioId, partition.count) === partition.index;
}
