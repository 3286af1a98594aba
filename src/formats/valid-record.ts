import type { PairDropReason } from "../core/reasons.js";
import type { Format, RecordFacts } from "./format.js";

/** A record that passed validation: its format, the record with undeclared fields removed, and its facts. */
export interface ValidRecord {
  readonly format: Format;
  record: Record<string, unknown>;
  readonly facts: RecordFacts;
  /** Position among the valid records of the run's inputs, in read order; stable across reads. */
  readonly ordinal: number;
  /** Length of the input line in bytes: what shard rotation measures, the same in every engine. */
  readonly bytes: number;
  /** `lineDigest` of the input line's bytes: how dedup tells a `conflicting_duplicate` from a `duplicate`. */
  readonly digest: number;
  /** Pairs the prune stage took out of the record, by reason (DPO): counted in the manifest when it is written. */
  readonly droppedPairs?: Readonly<Partial<Record<PairDropReason, number>>>;
}
