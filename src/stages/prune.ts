import { mapKept } from "../core/flow.js";
import type { ValidRecord } from "../formats/valid-record.js";

/**
 * Takes out of each record the parts its format's rules say teach nothing (DPO pairs: `pairDropReason`),
 * and notes how many went by reason, for the manifest's `dropped_pairs`. After dedup and filter, so only
 * records that are written are counted; not before a training view, which judges each pair itself.
 */
export function prune() {
  return mapKept<ValidRecord, ValidRecord>((value) => {
    const droppedPairs = value.format.prune(value.record as never);
    return droppedPairs === null ? value : { ...value, droppedPairs };
  });
}
