import { readFile } from "node:fs/promises";
import { ScoreTable } from "../../pull/index.js";
import type { CachedScore, ScoreCache } from "../../pull/index.js";

/** Where a dataset keeps the scores of its runs' scorecards, relative to its directory. */
export const SCORE_CACHE_DIR = "_cache";
export const SCORE_CACHE_FILE = "scorecards.ndjson";

/**
 * The score cache saved with a dataset: one `{run_id, version, gated, composite}` line per run (and `seats`
 * where the run document's seat count is known). The
 * cache only saves requests, so a missing or unreadable file, or a bad line, is no cache (for that run):
 * its scorecards are fetched again.
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
      return `${JSON.stringify({ run_id: id, version: s.version, gated: s.gated, composite: s.composite ?? null, ...(s.seats === undefined ? {} : { seats: s.seats }) })}\n`;
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
  const { run_id: runId, version, gated, composite, seats } = value as Record<string, unknown>;
  if (typeof runId !== "string" || typeof version !== "number" || !Number.isSafeInteger(version) || version < 0 || typeof gated !== "boolean") return undefined;
  if (composite !== null && composite !== undefined && (typeof composite !== "number" || !Number.isFinite(composite))) return undefined;
  if (seats !== undefined && (typeof seats !== "number" || !Number.isSafeInteger(seats) || seats < 0)) return undefined;
  return { runId, score: { version, gated, ...(typeof composite === "number" ? { composite } : {}), ...(seats === undefined ? {} : { seats }) } };
}
