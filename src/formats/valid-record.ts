import type { PairDropReason } from "../core/reasons.js";
import type { Format, RecordFacts } from "./format.js";

/**
 * A record that passed validation: its format, the record with undeclared fields removed, and its facts. `R` is
 * the record's type: the format's record type when the caller named the format (`planPipeline(sources,
 * {format: sft})`: `SftRecord`, or `StrippedSftRecord` after the strip stage), a plain object otherwise.
 */
export interface ValidRecord<R extends object = Record<string, unknown>> {
  readonly format: Format;
  record: R;
  readonly facts: RecordFacts;
  /** Position among the valid records of the run's inputs, in read order; stable across reads. */
  readonly ordinal: number;
  /** Length of the input line in bytes: what shard rotation measures. */
  readonly bytes: number;
  /** `lineDigest` of the input line's bytes: how dedup tells a `conflicting_duplicate` from a `duplicate`. */
  readonly digest: number;
  /** Pairs the prune stage took out of the record, by reason (DPO): counted in the manifest when it is written. */
  readonly droppedPairs?: Readonly<Partial<Record<PairDropReason, number>>>;
}
