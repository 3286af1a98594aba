import type { Provenance } from "./provenance.js";
import type { DropReason, QuarantineReason } from "./reasons.js";

/**
 * What travels between stages. A stage transforms `kept` items and passes every other kind through
 * untouched, so the one loop at the end of the pipeline counts and routes all outcomes.
 */
export type Flow<T> = Kept<T> | Dropped | Quarantined | StreamError;

export interface Kept<T> {
  readonly kind: "kept";
  readonly provenance: Provenance;
  readonly value: T;
}

export interface Dropped {
  readonly kind: "dropped";
  readonly provenance: Provenance;
  readonly reason: DropReason;
}

export interface Quarantined {
  readonly kind: "quarantined";
  readonly provenance: Provenance;
  readonly reason: QuarantineReason;
  /** Human-readable explanation: the failing path and what was expected. */
  readonly detail: string;
  /** The raw line, possibly capped; `rawLength` is its full length in bytes. */
  readonly raw: string;
  readonly rawLength: number;
  /**
   * Set when the untrusted-text policy changed `raw` (engines/policy-quarantine.ts): `stripped` (the line's
   * untrusted paths dropped or redacted as in the dataset) or `redacted` (a line that does not parse
   * but names an untrusted field, replaced by its sha256).
   */
  readonly rawPolicy?: "stripped" | "redacted";
  /** With `rawPolicy`: whether the line was cut at the cap before the policy rewrote it. */
  readonly rawTruncated?: boolean;
}

/** A `{error: "partial_stream", run_index}` line: a service-side gap, not a record. */
export interface StreamError {
  readonly kind: "stream_error";
  readonly provenance: Provenance;
  readonly runIndex: number | null;
}

/** A transform over a flow: the unit every stage is written as. */
export type Stage<In, Out> = (input: AsyncIterable<Flow<In>>) => AsyncIterable<Flow<Out>>;

/** Answer of a per-record rule: keep it, or drop it for a reason. */
export type Decision = "keep" | DropReason;

/** Builds a stage from a per-record rule; the stage owns the loop and passes other kinds through. */
export function decide<T>(rule: (value: T, provenance: Provenance) => Decision): Stage<T, T> {
  return eachKept(function* (item) {
    const decision = rule(item.value, item.provenance);
    yield decision === "keep" ? item : { kind: "dropped", provenance: item.provenance, reason: decision };
  });
}

/** Builds a stage that rewrites kept values one by one. */
export function mapKept<In, Out>(fn: (value: In) => Out): Stage<In, Out> {
  return eachKept(function* (item) {
    yield { kind: "kept", provenance: item.provenance, value: fn(item.value) };
  });
}

/** Builds a stage from what each kept item becomes (no item, one or several); every other kind passes through. */
export function eachKept<In, Out>(fn: (item: Kept<In>) => Iterable<Flow<Out>>): Stage<In, Out> {
  return async function* (input) {
    for await (const item of input) {
      if (item.kind === "kept") yield* fn(item);
      else yield item;
    }
  };
}
