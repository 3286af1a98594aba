import { ScoreTable } from "../../pull/index.js";
import type { CachedScore, ScoreCache } from "../../pull/index.js";
import type { SeatGate } from "../../formats/gate-book.js";
import type { RunCard } from "../../formats/scorecard-book.js";
import { tryParseJson } from "../../core/try-parse-json.js";

/** Where a dataset keeps the scores of its runs' scorecards, relative to its directory. */
export const SCORE_CACHE_DIR = "_cache";
export const SCORE_CACHE_FILE = "scorecards.ndjson";
/** Each line's `v`: a line of another version is no entry, so a cache written before the seats' cards were kept (issue 36) is rebuilt once. */
const CACHE_VERSION = 2;

/**
 * The score cache saved with a dataset, from its text: one `{v, run_id, version, gates, composite}` line per run (`gates`: the
 * run's cards that are not open, `[agent_key_id, "gated"]` or `[agent_key_id, "unreadable", why]`, a key
 * that cannot be read as false; `seats` and `hash`, the scenario_version_hash, where the run document gives them; RL and
 * DPO: `cards`, each valid card as `[agent_key_id, composite, objective_rate, {trait: mean}]`). The cache only
 * saves requests, so a missing file (read as ""), or a bad line (one of an earlier version, too), is no cache
 * for that run: its scorecards are fetched again. Kept off the JS heap (a ScoreTable): a night holds it
 * through its whole pull.
 */
export function parseScoreCache(text: string): ScoreTable {
  const cache = new ScoreTable();
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    const entry = parseEntry(text.slice(start, end < 0 ? text.length : end));
    start = end < 0 ? text.length : end + 1;
    if (entry === undefined) continue;
    // A file with a repeated run is not one this code wrote: trust none of it.
    if (cache.has(entry.runId)) return new ScoreTable();
    cache.set(entry.runId, entry.score);
  }
  return cache;
}

/** The file's text: runs sorted by id, so one cache always gives the same bytes. */
export function formatScoreCache(cache: ScoreCache): string {
  const ids = [...cache.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return ids
    .map((id) => {
      const s = cache.get(id) as CachedScore;
      const cards = s.cards === undefined ? {} : { cards: s.cards.map(cardLine) };
      return `${JSON.stringify({ v: CACHE_VERSION, run_id: id, version: s.version, gates: s.gates, composite: s.composite ?? null, ...(s.seats === undefined ? {} : { seats: s.seats }), ...(s.hash === undefined ? {} : { hash: s.hash }), ...cards })}\n`;
    })
    .join("");
}

function parseEntry(line: string): { runId: string; score: CachedScore } | undefined {
  if (line.trim() === "") return undefined;
  const value = tryParseJson(line);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { v, run_id: runId, version, gates, composite, seats, hash, cards } = value as Record<string, unknown>;
  if (v !== CACHE_VERSION) return undefined;
  const runCards = cards === undefined ? undefined : cardsOf(cards);
  if (runCards === null) return undefined;
  if (typeof runId !== "string" || typeof version !== "number" || !Number.isSafeInteger(version) || version < 0 || !Array.isArray(gates) || !gates.every(isSeatGate)) return undefined;
  if (composite !== null && composite !== undefined && (typeof composite !== "number" || !Number.isFinite(composite))) return undefined;
  if (seats !== undefined && (typeof seats !== "number" || !Number.isSafeInteger(seats) || seats < 0)) return undefined;
  if (hash !== undefined && (typeof hash !== "string" || hash === "")) return undefined;
  return { runId, score: { version, gates, ...(typeof composite === "number" ? { composite } : {}), ...(seats === undefined ? {} : { seats }), ...(hash === undefined ? {} : { hash }), ...(runCards === undefined ? {} : { cards: runCards }) } };
}

/** A card as a line holds it; a trait with no mean (NaN) as null. */
function cardLine(card: RunCard): unknown[] {
  const means = Object.fromEntries(card.traits.names.map((name, i) => [name, finiteOrNull(card.traits.means[i])]));
  return [card.agentKeyId, card.composite, card.objectiveRate, means];
}

/** A line's cards, or null when any is not one {@link cardLine} writes. */
function cardsOf(value: unknown): RunCard[] | null {
  if (!Array.isArray(value)) return null;
  const cards: RunCard[] = [];
  for (const item of value as unknown[]) {
    if (!Array.isArray(item) || item.length !== 4) return null;
    const [key, composite, objective, means] = item as unknown[];
    if (key !== null && (typeof key !== "string" || key === "")) return null;
    if (composite !== null && !isFiniteNumber(composite)) return null;
    if (!isFiniteNumber(objective) || typeof means !== "object" || means === null || Array.isArray(means)) return null;
    const entries = Object.entries(means as Record<string, unknown>);
    if (!entries.every(([, m]) => m === null || isFiniteNumber(m))) return null;
    const traits = { names: entries.map(([name]) => name), means: Float64Array.from(entries, ([, m]) => (typeof m === "number" ? m : Number.NaN)) };
    cards.push({ agentKeyId: key, composite, objectiveRate: objective, traits });
  }
  return cards;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function finiteOrNull(value: number | undefined): number | null {
  return value !== undefined && Number.isFinite(value) ? value : null;
}

function isSeatGate(value: unknown): value is SeatGate {
  if (!Array.isArray(value)) return false;
  const [seat, gate, why] = value as unknown[];
  const seatOk = seat === null || seat === false || (typeof seat === "string" && seat !== "");
  return seatOk && ((value.length === 2 && gate === "gated") || (value.length === 3 && gate === "unreadable" && typeof why === "string"));
}
