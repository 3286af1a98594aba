import { ConfigError } from "../core/errors.js";
import { openTokenCounter } from "../tokens/token-counter.js";
import type { TokenBudget } from "../tokens/token-budget.js";
import type { TokenCache } from "../tokens/token-cache.js";
import type { ViewOptions } from "./view-env.js";

/**
 * The token budget `options.tokens` sets (its libraries loaded now), or null when the run counts
 * no tokens. A ConfigError, before any row is built, when the system prompt alone, as the template renders it,
 * is over the budget: no row could fit (a view with no chat text to count, the plan refuses: `VIEW_TRAITS`).
 * `cache`: the counts a nightly dataset kept, bound here to the setup.
 */
export async function tokenBudgetOf(options: ViewOptions, cache: TokenCache | null = null): Promise<TokenBudget | null> {
  const setup = options.tokens;
  if (setup === undefined) return null;
  const counter = await openTokenCounter(setup);
  const { maxTokens } = setup;
  if (maxTokens !== null && options.systemPrompt !== undefined) {
    const system = [{ role: "system" as const, content: options.systemPrompt }];
    let rendered: string | null;
    try {
      rendered = counter.render(system, false);
    } catch {
      // A template that takes no system message alone (gemma refuses it): the text itself is the least it costs.
      rendered = options.systemPrompt;
    }
    const length = rendered === null ? counter.countMessages(system) : counter.count(rendered);
    if (length > maxTokens) throw new ConfigError(`--max-tokens ${maxTokens} is below the system prompt's own length (${length} tokens as the template renders it): every row would be dropped`);
  }
  cache?.bind(setup);
  return { counter, maxTokens, cache };
}
