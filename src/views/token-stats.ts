import type { NamedDigest, TokenSetup } from "../tokens/token-setup.js";

/** The manifest's `view.tokens`: the tokenizer and template the rows were counted with, and their lengths. */
export interface TokenStats {
  readonly tokenizer: NamedDigest;
  readonly chat_template: NamedDigest | null;
  readonly max_tokens: number | null;
  /** Rows written, each counted. */
  readonly rows: number;
  readonly total: number;
  readonly min: number | null;
  /** Nearest-rank percentiles of the rows' lengths. */
  readonly p50: number | null;
  readonly p95: number | null;
  readonly max: number | null;
  /** A nightly dataset's: rows (kept or dropped by the budget) whose counts came from its token cache, not counted again. */
  readonly cached?: number;
}

/** `view.tokens` from the run's setup, its length histogram (`ViewCounts.tokens`) and the rows judged from a token cache. */
export function tokenStats(setup: TokenSetup, histogram: readonly (readonly [number, number])[], cached?: number): TokenStats {
  const rows = histogram.reduce((n, [, r]) => n + r, 0);
  const total = histogram.reduce((n, [t, r]) => n + t * r, 0);
  const rank = (p: number): number | null => {
    if (rows === 0) return null;
    const target = Math.ceil((p / 100) * rows);
    let seen = 0;
    for (const [t, r] of histogram) if ((seen += r) >= target) return t;
    return null;
  };
  return {
    tokenizer: setup.tokenizer.digest,
    chat_template: setup.template?.digest ?? null,
    max_tokens: setup.maxTokens,
    rows,
    total,
    min: histogram[0]?.[0] ?? null,
    p50: rank(50),
    p95: rank(95),
    max: histogram[histogram.length - 1]?.[0] ?? null,
    ...(cached === undefined ? {} : { cached }),
  };
}
