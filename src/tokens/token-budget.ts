import type { TokenCache } from "./token-cache.js";
import type { TokenCounter } from "./token-counter.js";

/** A model's tokenizer and chat template, and the budget a row's training text must fit (`--max-tokens`). */
export interface TokenBudget {
  readonly counter: TokenCounter;
  /** null: rows are counted, none dropped for length. */
  readonly maxTokens: number | null;
  /** A nightly dataset's counts of the rows it counted before (bound to this budget's setup); null: every row is counted. */
  readonly cache: TokenCache | null;
}
