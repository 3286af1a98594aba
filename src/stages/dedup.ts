import { decide } from "../core/flow.js";
import type { ValidRecord } from "../formats/valid-record.js";
import type { DedupIndex } from "./dedup-index.js";

/**
 * Keeps one record per key: a lower scorecard version than the key's best is `superseded`,
 * any other copy than the winner is a `duplicate`.
 */
export function dedup(index: DedupIndex) {
  return decide<ValidRecord>((value) => {
    const winner = index.winner(value.facts.key);
    if (winner === undefined || winner.ordinal === value.ordinal) return "keep";
    return (value.facts.scorecardVersion ?? 0) < winner.version ? "superseded" : "duplicate";
  });
}
