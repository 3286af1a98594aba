import type { Counts } from "../core/tally.js";

/**
 * The manifest's word on `conflicting_duplicate`: the service sent two different records under one key and
 * scorecard version, and which one the dataset holds is a rule a reader should not have to guess.
 */
export function conflictWarnings(counts: Pick<Counts, "dropped">): string[] {
  const n = counts.dropped.conflicting_duplicate ?? 0;
  if (n === 0) return [];
  return [
    `dedup: ${n} record(s) had the key and scorecard version of a kept record but different content (conflicting_duplicate); each key kept its first copy in input order (docs/rules.md)`,
  ];
}
