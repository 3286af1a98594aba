import type { Flow } from "./flow.js";
import type { DropReason, PairDropReason, QuarantineReason } from "./reasons.js";

export interface Counts {
  /** Every non-blank line except stream-error lines. */
  readonly records_in: number;
  readonly records_out: number;
  readonly dropped: Readonly<Partial<Record<DropReason, number>>>;
  readonly quarantined: Readonly<Partial<Record<QuarantineReason, number>>>;
  readonly stream_errors: number;
  /** Pairs left out of the DPO records written, by reason; only when some were (records stay whole otherwise). */
  readonly dropped_pairs?: Readonly<Partial<Record<PairDropReason, number>>>;
}

/** The one place outcomes are counted, so `records_in = records_out + dropped + quarantined` holds by construction. */
export class Tally {
  #out = 0;
  #streamErrors = 0;
  readonly #streamErrorRuns = new Set<number>();
  readonly #dropped = new Map<DropReason, number>();
  readonly #quarantined = new Map<QuarantineReason, number>();
  readonly #droppedPairs = new Map<PairDropReason, number>();

  add(item: Flow<unknown>): void {
    switch (item.kind) {
      case "kept": {
        this.#out++;
        // A record the prune stage took pairs out of (ValidRecord.droppedPairs): counted wherever it is written.
        const pairs = (item.value as { droppedPairs?: Readonly<Partial<Record<PairDropReason, number>>> } | null)?.droppedPairs;
        if (pairs !== undefined) this.pairsDropped(pairs);
        break;
      }
      case "dropped":
        this.#dropped.set(item.reason, (this.#dropped.get(item.reason) ?? 0) + 1);
        break;
      case "quarantined":
        this.#quarantined.set(item.reason, (this.#quarantined.get(item.reason) ?? 0) + 1);
        break;
      case "stream_error":
        this.#streamErrors++;
        if (item.runIndex !== null) this.#streamErrorRuns.add(item.runIndex);
        break;
    }
  }

  /** Counts the pairs `prune` took out of a record that is written (see ValidRecord.droppedPairs). */
  pairsDropped(counts: Readonly<Partial<Record<PairDropReason, number>>>): void {
    for (const [reason, n] of Object.entries(counts) as [PairDropReason, number][]) this.#droppedPairs.set(reason, (this.#droppedPairs.get(reason) ?? 0) + n);
  }

  /** Counts a valid record's outcome without its flow item (the parallel engine decides them in bulk). */
  decided(outcome: "kept" | DropReason): void {
    if (outcome === "kept") this.#out++;
    else this.#dropped.set(outcome, (this.#dropped.get(outcome) ?? 0) + 1);
  }

  /**
   * Takes back a record counted kept: its view quarantines it after all (its rows matched an injection
   * pattern, judged after dedup), and its quarantine item is counted by `add`.
   */
  unkeep(): void {
    this.#out--;
  }

  /**
   * Moves `n` counted records from one outcome to a drop reason: the parallel engine's dedup learning, after
   * it counted a winner, that a later copy carries a higher scorecard version.
   */
  reclassify(from: "kept" | DropReason, to: DropReason, n = 1): void {
    if (n === 0) return;
    if (from === "kept") this.#out -= n;
    else this.#dropped.set(from, (this.#dropped.get(from) ?? 0) - n);
    this.#dropped.set(to, (this.#dropped.get(to) ?? 0) + n);
  }

  counts(): Counts {
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    // Code-unit order, not localeCompare: the first localeCompare loads ICU's collator (~25 ms at the end of
    // every run), and reason names are ASCII, where both orders agree.
    const sorted = <K extends string>(m: Map<K, number>) =>
      Object.fromEntries([...m].filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as Partial<Record<K, number>>;
    const counts: Counts = {
      records_in: this.#out + sum(this.#dropped) + sum(this.#quarantined),
      records_out: this.#out,
      dropped: sorted(this.#dropped),
      quarantined: sorted(this.#quarantined),
      stream_errors: this.#streamErrors,
    };
    return this.#droppedPairs.size === 0 ? counts : { ...counts, dropped_pairs: sorted(this.#droppedPairs) };
  }

  /** The `run_index` values of the stream-error lines, ascending: the runs a dataset misses (issue 20). */
  streamErrorRuns(): number[] {
    return [...this.#streamErrorRuns].sort((a, b) => a - b);
  }

  /** Share of `records_in` that was quarantined (0 for an empty input). */
  quarantinedShare(): number {
    return quarantinedShare(this.counts());
  }
}

/** The manifest's `quarantined_share` of any counts: a run's, parts merged, or a manifest's as `verify` reads it. */
export function quarantinedShare(c: { readonly records_in: number; readonly quarantined: Readonly<Record<string, number | undefined>> }): number {
  return c.records_in === 0 ? 0 : countTotal(c.quarantined) / c.records_in;
}

/** Records of every reason of a reason -> count map (dropped, quarantined, a view's left out). */
export function countTotal(counts: Readonly<Record<string, number | undefined>>): number {
  return Object.values(counts).reduce<number>((a, b) => a + (b ?? 0), 0);
}
