import type * as Crypto from "node:crypto";
import { lazyBuiltin } from "../core/lazy-builtin.js";

const nodeCrypto = lazyBuiltin<typeof Crypto>("node:crypto");

/** The names and fractions of a split, in their order along [0, 1), and the key of its hash. */
export interface SplitRule {
  readonly fractions: Readonly<Record<string, number>>;
  readonly seed: string;
}

/** 2^48: six bytes of the digest read as an integer are exact in a double. */
const SCALE = 2 ** 48;

/**
 * Where a group falls in [0, 1): HMAC-SHA256 keyed by the seed over the group's id (its UTF-8 bytes), the
 * digest's first six bytes read big-endian, divided by 2^48. The same in Python:
 * `int.from_bytes(hmac.new(seed.encode(), key.encode(), "sha256").digest()[:6], "big") / 2**48`.
 */
export function splitPoint(seed: string, groupKey: string): number {
  return nodeCrypto().createHmac("sha256", seed).update(groupKey).digest().readUIntBE(0, 6) / SCALE;
}

/**
 * The split a group belongs to: a pure function of the seed and the group's id, so every row of a group lands
 * in one split, in every run, partition and night. The fractions, in the order given, cut [0, 1) into
 * intervals; the group goes to the interval its {@link splitPoint} falls in (the last takes any rounding rest).
 */
export function splitOf(rule: SplitRule, groupKey: string): string {
  const point = splitPoint(rule.seed, groupKey);
  const entries = Object.entries(rule.fractions);
  let end = 0;
  for (const [name, fraction] of entries) {
    end += fraction;
    if (point < end) return name;
  }
  return (entries.at(-1) as [string, number])[0];
}
