import { decide } from "../core/flow.js";
import type { ValidRecord } from "../formats/valid-record.js";
import type { DedupIndex } from "./dedup-index.js";

/**
 * Keeps one record per key: a lower scorecard version than the key's best is `superseded`; any other copy
 * than the winner is a `duplicate` when its line's bytes are the winner's, else a `conflicting_duplicate`
 * (same key and version, other content: the winner stays the first copy in input order, docs/rules.md).
 */
export function dedup(index: DedupIndex) {
  return decide<ValidRecord>((value) => {
    const winner = index.winner(value.facts.key);
    if (winner === undefined || winner.ordinal === value.ordinal) return "keep";
    if ((value.facts.scorecardVersion ?? 0) < winner.version) return "superseded";
    return value.digest === winner.digest ? "duplicate" : "conflicting_duplicate";
  });
}
