/**
 * Dedup's rule, which the units' `DedupDecider` runs (src/engines/parallel/run/dedup-decider.ts): a
 * key's winner is its record of the highest scorecard version, the first read among equals. A record of
 * `version` read after the winner (of `winnerVersion`) takes the key from it only with a higher version.
 */
export function beatsWinner(version: number, winnerVersion: number): boolean {
  return version > winnerVersion;
}

/**
 * What a copy that is not its key's winner is: `superseded` below the winner's version, else a `duplicate`
 * when its line's digest is the winner's, else a `conflicting_duplicate` (same key and version, other
 * content: the winner stays the first copy in input order, docs/rules.md).
 */
export function copyOutcome(version: number, digest: number, winnerVersion: number, winnerDigest: number): "superseded" | "duplicate" | "conflicting_duplicate" {
  if (version < winnerVersion) return "superseded";
  return digest === winnerDigest ? "duplicate" : "conflicting_duplicate";
}
