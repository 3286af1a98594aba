import type { ViewDropReason, ViewResult } from "./view-result.js";

/** A view's counts over a run, for the manifest: `rows_out`, `{steps,pairs}_dropped` by reason, `prompts_trimmed`. */
export interface ViewCounts {
  readonly records_in: number;
  readonly rows_out: number;
  readonly dropped: Readonly<Partial<Record<ViewDropReason, number>>>;
  readonly prompts_trimmed: number;
}

/** Sums the results of a view over the records of a run. */
export class ViewTally {
  #records = 0;
  #rows = 0;
  #trimmed = 0;
  readonly #dropped = new Map<ViewDropReason, number>();

  add(result: ViewResult<unknown>): void {
    this.merge({ records_in: 1, rows_out: result.rows.length, dropped: result.dropped, prompts_trimmed: result.trimmed });
  }

  /** Adds counts made elsewhere (a parallel engine worker's, for the records main kept). */
  merge(counts: ViewCounts): void {
    this.#records += counts.records_in;
    this.#rows += counts.rows_out;
    this.#trimmed += counts.prompts_trimmed;
    for (const [reason, n] of Object.entries(counts.dropped) as [ViewDropReason, number][]) {
      this.#dropped.set(reason, (this.#dropped.get(reason) ?? 0) + n);
    }
  }

  counts(): ViewCounts {
    const dropped = Object.fromEntries([...this.#dropped].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return { records_in: this.#records, rows_out: this.#rows, dropped, prompts_trimmed: this.#trimmed };
  }
}
