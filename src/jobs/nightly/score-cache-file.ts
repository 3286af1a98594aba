import { readFile } from "node:fs/promises";
import { ScoreTable } from "../../pull/index.js";
import type { CachedScore, ScoreCache } from "../../pull/index.js";
import type { SeatGate } from "../../formats/gate-book.js";

/** Where a dataset keeps the scores of its runs' scorecards, relative to its directory. */
export const SCORE_CACHE_DIR = "_cache";
export const SCORE_CACHE_FILE = "scorecards.ndjson";

/**
 * The score cache saved with a dataset: one `{run_id, version, gates, composite}` line per run (`gates`: the
 * run's cards that are not open, `[agent_key_id, "gated"]` or `[agent_key_id, "unreadable", why]`, a key
 * that cannot be read as false; and `seats` and `hash`, the scenario_version_hash, where the run document gives them). The cache only
 * saves requests, so a missing or unreadable file, or a bad line (one written before issue 39, with `gated`
 * alone, too), is no cache for that run: its scorecards are fetched again.
 */
export async function readScoreCache(path: string): Promise<Map<string, CachedScore>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return new Map();
  }
  return new Map(parseScoreCache(text));
}

/**
 * The cache in a file's text (see {@link readScoreCache}), kept off the JS heap (a ScoreTable): a night
 * holds it through its whole pull.
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
      return `${JSON.stringify({ run_id: id, version: s.version, gates: s.gates, composite: s.composite ?? null, ...(s.seats === undefined ? {} : { seats: s.seats }), ...(s.hash === undefined ? {} : { hash: s.hash }) })}\n`;
    })
    .join("");
}

function parseEntry(line: string): { runId: string; score: CachedScore } | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { run_id: runId, version, gates, composite, seats, hash } = value as Record<string, unknown>;
  if (typeof runId !== "string" || typeof version !== "number" || !Number.isSafeInteger(version) || version < 0 || !Array.isArray(gates) || !gates.every(isSeatGate)) return undefined;
  if (composite !== null && composite !== undefined && (typeof composite !== "number" || !Number.isFinite(composite))) return undefined;
  if (seats !== undefined && (typeof seats !== "number" || !Number.isSafeInteger(seats) || seats < 0)) return undefined;
  if (hash !== undefined && (typeof hash !== "string" || hash === "")) return undefined;
  return { runId, score: { version, gates, ...(typeof composite === "number" ? { composite } : {}), ...(seats === undefined ? {} : { seats }), ...(hash === undefined ? {} : { hash }) } };
}

function isSeatGate(value: unknown): value is SeatGate {
  if (!Array.isArray(value)) return false;
  const [seat, gate, why] = value as unknown[];
  const seatOk = seat === null || seat === false || (typeof seat === "string" && seat !== "");
  return seatOk && ((value.length === 2 && gate === "gated") || (value.length === 3 && gate === "unreadable" && typeof why === "string"));
}
