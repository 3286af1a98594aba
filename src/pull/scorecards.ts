import type { ExportClient } from "../http/index.js";
import { inOrder } from "./in-order.js";
import { isRecord } from "./list-runs.js";
import type { PullTally } from "./pull-report.js";
import type { PullRoutes } from "./routes.js";
import type { CachedScore, ScoreCache, ScoreTable } from "./score-table.js";
import { cardGate } from "../formats/card-gate.js";
import { runGateEntries, unreadableGateText } from "../formats/gate-book.js";
import type { GateEntry, SeatGate } from "../formats/gate-book.js";

export type { CachedScore, ScoreCache } from "./score-table.js";

/** What a pull needs from a run's scorecards (spec 2.7). */
export interface RunScore {
  /** Its cards that are not open (gated, or unreadable), by seat: the one gating rule reads them (gate-book.ts). */
  readonly gates: readonly SeatGate[];
  /**
   * Mean of `traits.per_trait[*].mean` over the agent seats' scorecards (safety traits are not part of
   * the composite): the key's one seat on agent routes; on owner routes every seat with an
   * `agent_key_id`, averaged (all seats if none has one). Undefined when no trait has a mean.
   */
  readonly composite: number | undefined;
}

/** The score cache a pull reads (`cache`) and the one it leaves for the next (`out`). */
export interface Scoring {
  readonly cache: ScoreCache | undefined;
  readonly out: ScoreTable;
}

/** A run's score, and the version the cache left for the next pull holds for it (undefined: none). */
export interface ScoredRun extends RunScore {
  readonly cachedVersion: number | undefined;
}

/**
 * Each run's score, handed to `take` in the order of `runs`: from `scoring.cache` when its entry is for the
 * version the run's records carry (`versionOf`), else fetched once, all under the client's concurrency
 * limit. A run of unknown version is always fetched. Every score whose version is known is put in
 * `scoring.out` (in the order of `runs`), so that is the cache for the next pull.
 */
export async function scoresOf<T>(
  client: ExportClient,
  routes: PullRoutes,
  runs: ArrayLike<T>,
  idOf: (run: T) => string,
  versionOf: (run: T) => number | undefined,
  { cache, out }: Scoring,
  tally: PullTally,
  take: (score: ScoredRun, run: T) => void,
): Promise<void> {
  // A window of requests, not one promise per run: see inOrder.
  await inOrder(
    runs,
    async (run): Promise<ScoredRun & { readonly runId: string; readonly entry: CachedScore | undefined }> => {
      const runId = idOf(run);
      const version = versionOf(run);
      const hit = cache?.get(runId);
      if (version !== undefined && hit !== undefined && hit.version === version) {
        tally.r.scorecardsCached++;
        return { gates: hit.gates, composite: hit.composite, cachedVersion: hit.version, runId, entry: hit };
      }
      tally.r.requests++;
      tally.r.scorecardsFetched++;
      // Pinned to the version the records carry, so the score describes them even if the run was
      // rescored since (spec 4.3: `version` pins a scorecard version, min 1).
      const pin = version !== undefined && version >= 1 ? version : undefined;
      const body = await client.getJson<unknown>(routes.scorecard(runId), pin === undefined ? undefined : { version: pin });
      const score = scoreOf(body, runId);
      // What the body describes, from the spec's own `versions` (never a per-card field): a body that
      // names no version is not cached.
      const fetchedVersion = bodyVersion(body, pin);
      const entry = fetchedVersion === undefined ? undefined : { version: fetchedVersion, gates: score.gates, ...(score.composite === undefined ? {} : { composite: score.composite }) };
      return { ...score, cachedVersion: fetchedVersion, runId, entry };
    },
    // Cached in list order, not completion order: one world's cache is always the same table.
    (scored, run) => {
      if (scored.entry !== undefined) out.set(scored.runId, scored.entry);
      take(scored, run);
    },
  );
}

/** A run's score and gates from its scorecard body; `runId`: the run whose route answered it. */
/**
 * Adds a run's seat gates to `gates` (a GateBook's entries), counts the run when a card is gated, and
 * reports each unreadable card by run, key and field.
 */
export function noteGates(gates: GateEntry[], runId: string, seatGates: readonly SeatGate[], tally: PullTally): void {
  if (seatGates.length === 0) return;
  gates.push(...runGateEntries(runId, seatGates));
  if (seatGates.some((g) => g[1] === "gated")) tally.r.gated++;
  for (const g of seatGates) {
    const text = unreadableGateText(runId, g);
    if (text !== null) tally.r.unreadableGating.push(text);
  }
}

export function scoreOf(body: unknown, runId: string): RunScore {
  // Every element of the list, card or not: one that cannot be read gates (unreadable), never passes.
  if (!isRecord(body) || !Array.isArray(body.scorecards)) return { gates: [[false, "unreadable", "the scorecard response has no scorecards list"]], composite: undefined };
  const gates: SeatGate[] = [];
  for (const card of body.scorecards as unknown[]) {
    const { seat, gate, unreadable } = cardGate(card, runId);
    if (gate === "gated") gates.push([seat, gate]);
    else if (gate === "unreadable") gates.push([seat, gate, unreadable === null ? "unreadable" : `${unreadable.field} is ${unreadable.found}`]);
  }
  const cards = cardsOf(body);
  const agentCards = cards.filter((c) => typeof c.agent_key_id === "string" && c.agent_key_id !== "");
  const seatMeans = (agentCards.length > 0 ? agentCards : cards).map(traitMean).filter((m): m is number => m !== undefined);
  return { gates, composite: mean(seatMeans) };
}

/**
 * The scorecard version a `{scorecards, versions}` body (spec 2.7, 9) describes: the pinned one when the
 * body lists it, else the latest of `versions` (an unpinned request answers the latest). Undefined when
 * `versions` is missing, empty, or does not list the pinned version.
 */
export function bodyVersion(body: unknown, pinned?: number): number | undefined {
  const listed = isRecord(body) && Array.isArray(body.versions) ? body.versions : [];
  if (pinned !== undefined) return listed.includes(pinned) ? pinned : undefined;
  return maxVersion(listed);
}

/** Notes a record's `scorecard_version` in `versions` (the max over the run's seats). */
export function noteVersion(versions: Map<string, number>, runId: string, version: unknown): void {
  const v = maxVersion([version, versions.get(runId)]);
  if (v !== undefined) versions.set(runId, v);
}

/** A scorecard version a record may carry: a whole number from 0 up. */
export function isVersion(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function maxVersion(values: readonly unknown[]): number | undefined {
  const ok = values.filter(isVersion);
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
