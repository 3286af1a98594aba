import { ConfigError } from "../core/errors.js";
import { wholeOption } from "../core/whole-option.js";

export type PairStrategy = "best-worst" | "adjacent" | "all";

export interface DpoOptions {
  readonly strategy: PairStrategy;
  /** Pairs per scenario at most. Default 10 for `all`; `adjacent` and `best-worst` uncapped unless set. */
  readonly maxPairsPerScenario?: number;
}

/** A run that may be paired: scored, unflagged, ungated, with a composite. */
export interface PairCandidate {
  readonly runId: string;
  readonly campaignId: string;
  readonly composite: number;
  /** Place in the service's list order: breaks composite ties, so plans are deterministic. */
  readonly order: number;
}

export interface PlannedPair {
  readonly campaignId: string;
  /** The higher composite of the two (the likely `run_chosen`; the service decides). */
  readonly runIdA: string;
  readonly runIdB: string;
}

export const DEFAULT_MAX_PAIRS = 10;

export function checkDpoOptions(options: DpoOptions): void {
  if (!["best-worst", "adjacent", "all"].includes(options.strategy)) {
    throw new ConfigError(`Expected \`dpo.strategy\` to be "best-worst", "adjacent" or "all", got ${JSON.stringify(options.strategy)}`);
  }
  if (options.maxPairsPerScenario !== undefined) wholeOption("dpo.maxPairsPerScenario", options.maxPairsPerScenario, 1);
}

/**
 * The pairs to ask for, scenario by scenario (scenarios in order of their first run in the list).
 * Within a scenario runs are ranked by composite, highest first, list order breaking ties:
 * `best-worst` pairs the first with the last, `adjacent` each run with the next, `all` every pair
 * (i, j) with i < j in rank order. Then the per-scenario cap applies.
 */
export function planPairs(candidates: readonly PairCandidate[], options: DpoOptions): PlannedPair[] {
  const cap = options.maxPairsPerScenario ?? (options.strategy === "all" ? DEFAULT_MAX_PAIRS : Number.POSITIVE_INFINITY);
  const byScenario = new Map<string, PairCandidate[]>();
  for (const c of [...candidates].sort((a, b) => a.order - b.order)) {
    const group = byScenario.get(c.campaignId) ?? [];
    group.push(c);
    byScenario.set(c.campaignId, group);
  }
  const pairs: PlannedPair[] = [];
  for (const [campaignId, group] of byScenario) {
    const ranked = group.sort((a, b) => b.composite - a.composite || a.order - b.order);
    const pair = (a: PairCandidate, b: PairCandidate): PlannedPair => ({ campaignId, runIdA: a.runId, runIdB: b.runId });
    const planned: PlannedPair[] = [];
    if (options.strategy === "best-worst") {
      const [first, last] = [ranked[0], ranked[ranked.length - 1]];
      if (ranked.length >= 2 && first !== undefined && last !== undefined) planned.push(pair(first, last));
    } else if (options.strategy === "adjacent") {
      for (let i = 0; i + 1 < ranked.length && planned.length < cap; i++) planned.push(pair(ranked[i] as PairCandidate, ranked[i + 1] as PairCandidate));
    } else {
      for (let i = 0; i < ranked.length && planned.length < cap; i++) {
        for (let j = i + 1; j < ranked.length && planned.length < cap; j++) planned.push(pair(ranked[i] as PairCandidate, ranked[j] as PairCandidate));
      }
    }
    pairs.push(...planned.slice(0, cap));
  }
  return pairs;
}
