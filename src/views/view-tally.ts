import type { ViewDropReason, ViewResult } from "./view-result.js";

/** A view's counts over a run, for the manifest: `rows_out`, `{steps,pairs}_dropped` by reason, `prompts_trimmed`. */
export interface ViewCounts {
  readonly records_in: number;
  readonly rows_out: number;
  readonly dropped: Readonly<Partial<Record<ViewDropReason, number>>>;
  readonly prompts_trimmed: number;
  /** With a tokenizer: how many rows had each training-text length, `[tokens, rows]` by length (exact percentiles, small to carry). */
  readonly tokens?: readonly (readonly [number, number])[];
  /** With a nightly dataset's token cache: rows (kept or dropped by the budget) judged from it. */
  readonly tokens_cached?: number;
}

/** Sums the results of a view over the records of a run. */
export class ViewTally {
  #records = 0;
  #rows = 0;
  #trimmed = 0;
  readonly #dropped = new Map<ViewDropReason, number>();
  readonly #tokens = new Map<number, number>();
  #cached: number | undefined;

  add(result: ViewResult<unknown>): void {
    this.merge({ records_in: 1, rows_out: result.rows.length, dropped: result.dropped, prompts_trimmed: result.trimmed, tokens: (result.tokens ?? []).map((n) => [n, 1] as const), ...(result.cached === undefined ? {} : { tokens_cached: result.cached }) });
  }

  /** Adds counts made elsewhere (a parallel engine worker's, for the records main kept). */
  merge(counts: ViewCounts): void {
    this.#records += counts.records_in;
    this.#rows += counts.rows_out;
    this.#trimmed += counts.prompts_trimmed;
    for (const [reason, n] of Object.entries(counts.dropped) as [ViewDropReason, number][]) {
      this.#dropped.set(reason, (this.#dropped.get(reason) ?? 0) + n);
    }
    for (const [tokens, rows] of counts.tokens ?? []) this.#tokens.set(tokens, (this.#tokens.get(tokens) ?? 0) + rows);
    if (counts.tokens_cached !== undefined) this.#cached = (this.#cached ?? 0) + counts.tokens_cached;
  }

  counts(): ViewCounts {
    const dropped = Object.fromEntries([...this.#dropped].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const counts = { records_in: this.#records, rows_out: this.#rows, dropped, prompts_trimmed: this.#trimmed, ...(this.#cached === undefined ? {} : { tokens_cached: this.#cached }) };
    return this.#tokens.size === 0 ? counts : { ...counts, tokens: [...this.#tokens].sort(([a], [b]) => a - b) };
  }
}
