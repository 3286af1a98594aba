import type { ServiceClient } from "../http/index.js";
import { isRecord } from "./list-runs.js";
import type { PullTally } from "./pull-report.js";
import type { PullRoutes } from "./routes.js";

/** What a pull needs from a run's scorecards (spec 2.7). */
export interface RunScore {
  /** A scorecard carries a truthy `participation_gated`. */
  readonly gated: boolean;
  /**
   * Mean of `traits.per_trait[*].mean` over the agent seats' scorecards (safety traits are not part of
   * the composite): the key's one seat on agent routes; on owner routes every seat with an
   * `agent_key_id`, averaged (all seats if none has one). Undefined when no trait has a mean.
   */
  readonly composite: number | undefined;
}

/** Fetches each run's scorecards once, all under the client's concurrency limit. */
export async function fetchScores(client: ServiceClient, routes: PullRoutes, runIds: readonly string[], tally: PullTally): Promise<Map<string, RunScore>> {
  const scores = await Promise.all(
    runIds.map(async (runId) => {
      tally.r.requests++;
      return [runId, scoreOf(await client.getJson<unknown>(routes.scorecard(runId)))] as const;
    }),
  );
  return new Map(scores);
}

export function scoreOf(body: unknown): RunScore {
  const cards = isRecord(body) && Array.isArray(body.scorecards) ? body.scorecards.filter(isRecord) : [];
  const gated = cards.some((c) => Boolean(c.participation_gated));
  const agentCards = cards.filter((c) => typeof c.agent_key_id === "string" && c.agent_key_id !== "");
  const seatMeans = (agentCards.length > 0 ? agentCards : cards).map(traitMean).filter((m): m is number => m !== undefined);
  return { gated, composite: mean(seatMeans) };
}

function traitMean(card: Record<string, unknown>): number | undefined {
  const perTrait = isRecord(card.traits) && isRecord(card.traits.per_trait) ? card.traits.per_trait : {};
  const means = Object.values(perTrait).map((t) => (isRecord(t) && typeof t.mean === "number" && Number.isFinite(t.mean) ? t.mean : undefined));
  return mean(means.filter((m): m is number => m !== undefined));
}

function mean(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((s, x) => s + x, 0) / values.length;
}
