import type { ExportClient } from "../http/index.js";
import { asCompleted, WIDE_IN_FLIGHT } from "./as-completed.js";
import { isRecord } from "../core/is-record.js";
import type { PullTally } from "./pull-report.js";
import type { PullRoutes } from "./routes.js";
import type { CachedScore, RunScore, ScoreCache, ScoredRun, ScoreTable } from "./score-table.js";
import { RunScores } from "./run-scores.js";
import { cardGate } from "../formats/card-gate.js";
import { runGateEntries, unreadableGateText } from "../formats/gate-book.js";
import type { GateEntry, SeatGate } from "../formats/gate-book.js";
import { scorecardSchema } from "../formats/scorecard.js";
import { cardSeatScore, seatScoreOf } from "../formats/seat-score.js";
import type { RunCard } from "../formats/scorecard-book.js";
import type { ScoreBookWriter } from "../formats/score-book-writer.js";

export type { CachedScore, RunScore, ScoreCache, ScoredRun } from "./score-table.js";

/** The score cache a pull reads (`cache`) and the one it leaves for the next (`out`). */
export interface Scoring {
  readonly cache: ScoreCache | undefined;
  readonly out: ScoreTable;
  /**
   * RL and DPO: the night's score book, where each scored run's cards go: `out` keeps its entries' cards in it
   * (null: SFT, whose records carry their scores).
   */
  readonly book: ScoreBookWriter | null;
  /** Where each run's cards that are not open go (a GateBook's entries), in the order of the runs. */
  readonly gates: GateEntry[];
}


/**
 * Each run's score, handed to `take` in the order of `runs`: from `scoring.cache` when its entry is for the
 * version the run's records carry (`versionOf`), else fetched once, all under the client's concurrency
 * limit. A run of unknown version, or one whose cache entry `fetch` turns down (it lacks the seats), is always fetched. Every score whose version is known is put in
 * `scoring.out` (in the order of `runs`), so that is the cache for the next pull. Requests are taken as
 * they complete and nothing is taken before the last is in: `take` sees every score, in list order, once
 * all are known (a failure takes none), its cards that are not open noted in `scoring.gates` first. `ready`: the positions in `runs` whose version is known, as they
 * become so (see asCompleted); without it every run's is known now.
 */
export async function scoresOf<T>(
  client: ExportClient,
  routes: PullRoutes,
  runs: ArrayLike<T>,
  idOf: (run: T) => string,
  versionOf: (run: T) => number | undefined,
  { cache, out, book, gates }: Scoring,
  tally: PullTally,
  take: (score: ScoredRun, run: T) => void,
  fetch?: (run: T, hit: CachedScore) => boolean,
  ready?: () => Promise<number | undefined>,
): Promise<void> {
  // As they complete (issue 40): in list order, one request deep in its retries kept anything past the
  // next WIDE_IN_FLIGHT runs from starting. Scores are parked by position and taken in list order below.
  const slots = new RunScores(runs.length);
  await asCompleted(
    runs,
    async (run): Promise<ScoredRun> => {
      const runId = idOf(run);
      const version = versionOf(run);
      const hit = cache?.get(runId);
      // An entry cached before issue 35 lacks the owner route's scenario hash: its run document is read again, once.
      const lacksHash = client.auth === "owner" && hit?.hash === undefined;
      const lacksCards = book !== null && hit?.cards === undefined;
      if (version !== undefined && hit !== undefined && hit.version === version && !lacksHash && !lacksCards && fetch?.(run, hit) !== true) {
        tally.r.scorecardsCached++;
        return { gates: hit.gates, composite: hit.composite, seats: hit.seats, hash: hit.hash, cards: book === null ? undefined : hit.cards, cachedVersion: hit.version };
      }
      tally.r.requests++;
      tally.r.scorecardsFetched++;
      // Pinned to the version the records carry, so the score describes them even if the run was
      // rescored since (spec 4.3: `version` pins a scorecard version, min 1).
      const pin = version !== undefined && version >= 1 ? version : undefined;
      const body = await client.getJson<unknown>(routes.scorecard(runId), pin === undefined ? undefined : { version: pin });
      const { cards, ...score } = scoreOf(body, runId);
      // What the body describes, from the spec's own `versions` (never a per-card field): a body that
      // names no version is not cached.
      return { ...score, cards: book === null ? undefined : cards, cachedVersion: bodyVersion(body, pin) };
    },
    (scored, run, index) => slots.set(index, idOf(run), { ...scored, version: scored.cachedVersion }),
    // Wide: a score is small, and many requests may be waiting out retries at once.
    WIDE_IN_FLIGHT,
    ready,
  );
  // Cached in list order, not completion order: one world's cache is always the same table.
  for (let index = 0; index < runs.length; index++) {
    const run = runs[index] as T;
    const slot = slots.get(index);
    if (slot === undefined) throw new Error(`no score at ${index}`);
    const { version, ...score } = slot;
    // The cache entry a score leaves for the next pull: what it says, at the version it describes. Its
    // cards go to the book through it; a run of unknown version is in the book alone.
    if (version !== undefined) out.set(idOf(run), { ...score, version });
    else if (book !== null) book.addRun(idOf(run), score.cards ?? []);
    noteGates(gates, idOf(run), score.gates, tally);
    take({ ...score, cachedVersion: version }, run);
  }
  tally.emit({ type: "scorecards", runs: runs.length, gated: tally.r.gated });
}

/**
 * Adds a run's seat gates to `gates` (a GateBook's entries), counts the run when a card is gated, and
 * reports each unreadable card by run, key and field.
 */
function noteGates(gates: GateEntry[], runId: string, seatGates: readonly SeatGate[], tally: PullTally): void {
  if (seatGates.length === 0) return;
  gates.push(...runGateEntries(runId, seatGates));
  if (seatGates.some((g) => g[1] === "gated")) tally.r.gated++;
  for (const g of seatGates) {
    const text = unreadableGateText(runId, g);
    if (text !== null) tally.r.unreadableGating.push(text);
  }
}

/** A run's score, gates and seats from its scorecard body; `runId`: the run whose route answered it. */
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
  // Each seat's composite as selection reads a card's (seat-score.ts), whether or not the card is valid.
  const seatMeans = (agentCards.length > 0 ? agentCards : cards).flatMap((c) => seatScoreOf(isRecord(c.traits) ? c.traits.per_trait : undefined, undefined).composite ?? []);
  const manifest = isRecord(body) && isRecord(body.manifest) ? body.manifest : undefined;
  const snapshots = manifest !== undefined && Array.isArray(manifest.seat_snapshots) ? manifest.seat_snapshots : undefined;
  // The run document's scenario hash (spec 2.4, owner routes): how RL and DPO runs are decontaminated.
  const hash = typeof manifest?.scenario_version_hash === "string" && manifest.scenario_version_hash !== "" ? manifest.scenario_version_hash : undefined;
  return { gates, composite: mean(seatMeans), cards: cards.flatMap(validCard), ...(snapshots === undefined ? {} : { seats: snapshots.length }), ...(hash === undefined ? {} : { hash }) };
}

/** A card's seat scores as `--scorecards` reads a card (src/stages/read-scorecards.ts); none for a card that fails spec 2.7. */
function validCard(card: Record<string, unknown>): RunCard[] {
  const parsed = scorecardSchema.safeParse(card);
  if (!parsed.success) return [];
  const { composite, objectiveRate, traits } = cardSeatScore(parsed.data);
  return [{ agentKeyId: parsed.data.agent_key_id, composite, objectiveRate, traits }];
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

/**
 * Notes a record's `scorecard_version` in `versions` (by run number, NaN while none is known): the max over the
 * run's seats, so its score may come from the cache.
 */
export function noteVersion(versions: Float64Array, run: number, version: unknown): void {
  if (isVersion(version) && !(version <= (versions[run] as number))) versions[run] = version;
}

/** The version {@link noteVersion} left for a run; undefined while none is known. */
export function knownVersion(versions: Float64Array, run: number): number | undefined {
  return Number.isNaN(versions[run]) ? undefined : (versions[run] as number);
}

/** A scorecard version a record may carry: a whole number from 0 up. */
function isVersion(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function maxVersion(values: readonly unknown[]): number | undefined {
  const ok = values.filter(isVersion);
  return ok.length === 0 ? undefined : Math.max(...ok);
}

function cardsOf(body: unknown): Record<string, unknown>[] {
  return isRecord(body) && Array.isArray(body.scorecards) ? body.scorecards.filter(isRecord) : [];
}

function mean(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((s, x) => s + x, 0) / values.length;
}
