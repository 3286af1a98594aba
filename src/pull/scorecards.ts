import type { ServiceClient } from "../http/index.js";
import { inOrder } from "./in-order.js";
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

/**
 * A run's score at one scorecard version. A version is immutable (rescoring makes a new one), so an
 * entry stays true for as long as the run's records carry that version.
 */
export interface CachedScore {
  readonly version: number;
  readonly gated: boolean;
  readonly composite?: number;
}

/** Cached scores by run id. */
export type ScoreCache = ReadonlyMap<string, CachedScore>;

/** The score cache a pull reads (`cache`) and the one it leaves for the next (`out`). */
export interface Scoring {
  readonly cache: ScoreCache | undefined;
  readonly out: Map<string, CachedScore>;
}

/**
 * Each run's score: from `scoring.cache` when its entry is for the version the run's records carry
 * (`versions`), else fetched once, all under the client's concurrency limit. A run of unknown version
 * is always fetched. Every score whose version is known is put in `scoring.out`, so that is the cache for
 * the next pull.
 */
export async function scoresOf(
  client: ServiceClient,
  routes: PullRoutes,
  runIds: readonly string[],
  versions: ReadonlyMap<string, number>,
  { cache, out }: Scoring,
  tally: PullTally,
): Promise<Map<string, RunScore>> {
  const scores = new Map<string, RunScore>();
  // A window of requests, not one promise per run: see inOrder.
  await inOrder(
    runIds,
    async (runId): Promise<RunScore> => {
      const version = versions.get(runId);
      const hit = cache?.get(runId);
      if (version !== undefined && hit !== undefined && hit.version === version) {
        tally.r.scorecardsCached++;
        out.set(runId, hit);
        return { gated: hit.gated, composite: hit.composite };
      }
      tally.r.requests++;
      tally.r.scorecardsFetched++;
      // Pinned to the version the records carry, so the score describes them even if the run was
      // rescored since (spec 4.3: `version` pins a scorecard version, min 1).
      const pin = version !== undefined && version >= 1 ? version : undefined;
      const body = await client.getJson<unknown>(routes.scorecard(runId), pin === undefined ? undefined : { version: pin });
      const score = scoreOf(body);
      // What the body describes, from the spec's own `versions` (never a per-card field): a body that
      // names no version is not cached.
      const fetchedVersion = versionOf(body, pin);
      if (fetchedVersion !== undefined) out.set(runId, { version: fetchedVersion, gated: score.gated, ...(score.composite === undefined ? {} : { composite: score.composite }) });
      return score;
    },
    (score, runId) => void scores.set(runId, score),
  );
  return scores;
}

export function scoreOf(body: unknown): RunScore {
  const cards = cardsOf(body);
  const gated = cards.some((c) => Boolean(c.participation_gated));
  const agentCards = cards.filter((c) => typeof c.agent_key_id === "string" && c.agent_key_id !== "");
  const seatMeans = (agentCards.length > 0 ? agentCards : cards).map(traitMean).filter((m): m is number => m !== undefined);
  return { gated, composite: mean(seatMeans) };
}

/**
 * The scorecard version a `{scorecards, versions}` body (spec 2.7, 9) describes: the pinned one when the
 * body lists it, else the latest of `versions` (an unpinned request answers the latest). Undefined when
 * `versions` is missing, empty, or does not list the pinned version.
 */
export function versionOf(body: unknown, pinned?: number): number | undefined {
  const listed = isRecord(body) && Array.isArray(body.versions) ? body.versions : [];
  if (pinned !== undefined) return listed.includes(pinned) ? pinned : undefined;
  return maxVersion(listed);
}

/** Notes a record's `scorecard_version` in `versions` (the max over the run's seats). */
export function noteVersion(versions: Map<string, number>, runId: string, version: unknown): void {
  const v = maxVersion([version, versions.get(runId)]);
  if (v !== undefined) versions.set(runId, v);
}

function maxVersion(values: readonly unknown[]): number | undefined {
  const ok = values.filter((v): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0);
  return ok.length === 0 ? undefined : Math.max(...ok);
}

function cardsOf(body: unknown): Record<string, unknown>[] {
  return isRecord(body) && Array.isArray(body.scorecards) ? body.scorecards.filter(isRecord) : [];
}

function traitMean(card: Record<string, unknown>): number | undefined {
  const perTrait = isRecord(card.traits) && isRecord(card.traits.per_trait) ? card.traits.per_trait : {};
  const means = Object.values(perTrait).map((t) => (isRecord(t) && typeof t.mean === "number" && Number.isFinite(t.mean) ? t.mean : undefined));
  return mean(means.filter((m): m is number => m !== undefined));
}

function mean(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((s, x) => s + x, 0) / values.length;
}
