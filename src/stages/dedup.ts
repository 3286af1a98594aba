import { copyOutcome } from "../core/dedup-rule.js";
import { decide } from "../core/flow.js";
import type { ValidRecord } from "../formats/valid-record.js";
import type { DedupIndex } from "./dedup-index.js";

/** Keeps one record per key, its winner in `index`; any other copy is dropped as `copyOutcome` says. */
export function dedup(index: DedupIndex) {
  return decide<ValidRecord>((value) => {
    const winner = index.winner(value.facts.key);
    if (winner === undefined || winner.ordinal === value.ordinal) return "keep";
    return copyOutcome(value.facts.scorecardVersion ?? 0, value.digest, winner.version, winner.digest);
  });
}
