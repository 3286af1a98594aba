import { completeNdjson, ConflictError, NotFoundError, type Query, type ExportClient } from "../http/index.js";
import { asCompleted, WIDE_IN_FLIGHT } from "./as-completed.js";
import { isRecord } from "../core/is-record.js";
import type { PullTally } from "./pull-report.js";
import { getRawRecordEntries } from "./raw-records.js";
import { recordFacts } from "./record-facts.js";
import { SeenRecords } from "./seen-records.js";
import type { PullRoutes } from "./routes.js";
import type { RunTable } from "./run-table.js";
import { tryParseJson } from "../core/try-parse-json.js";

/** Owner bulk exports take at most 500 runs per request (spec section 8). */
export const OWNER_BULK_LIMIT = 500;
/** Agent bulk exports are capped by platform configuration: ask for as many, take what comes. */
export const AGENT_BULK_LIMIT = 500;

/** Per-run flags of a fetch. */
const WANTED = 1;
const DELIVERED = 2;
const SUSPECT = 4;

export interface FetchRecordsContext {
  readonly client: ExportClient;
  readonly routes: PullRoutes;
  readonly tally: PullTally;
  /** RL: a 404 on a per-run fetch means the run has no RL data (reported, not an error). */
  readonly rl: boolean;
  /**
   * Every wanted run from its own route, no bulk stream: a part of a night partitioned by run wants a hash
   * share of every campaign, and a campaign's stream carries all of its runs to every part.
   */
  readonly perRun?: boolean;
}

/** One record of a wanted run, as raw text, with what keyed it; parsed only on request. */
export interface RecordVisit {
  /** The run's number in the RunTable. */
  readonly run: number;
  /** run id and seat index: the record's identity within a pull. */
  readonly key: string;
  readonly seat: number;
  readonly line: string;
  /** The record's `scorecard_version` when it is a number. */
  readonly version: number | undefined;
  /** The record parsed (by JSON.parse, once, when asked): a bulk line is keyed without it (see recordFacts). */
  record(): Readonly<Record<string, unknown>>;
}

/** A line keyed as a record of run `runId`, or undefined when it is none (not JSON, not an object, no run id or seat index). */
interface Keyed {
  readonly key: string;
  readonly seat: number;
  readonly runId: string;
  readonly version: number | undefined;
  /** JSON.parse's value, when keying needed it. */
  readonly value: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Every record of the `wanted` runs (numbers in `runs`, in list order), each handed to `visit` once (in no particular order). The bulk
 * streams go first (owner: one per campaign, `limit=500`; agent: one, capped by the platform), cut
 * streams completed by re-requesting; records of runs not wanted are dropped and counted. Lines that
 * are not records (`{"error":"partial_stream"}`) go to `other` as they came. Wanted runs the streams
 * did not deliver (past the limit, behind a partial_stream line), or may have delivered only in part
 * (the run a cut fell in, the last run of each owner stream), are then fetched one by one; `visit` sees
 * each record key once. `ready` hears each wanted run once no more of its records will come (`answered`: its
 * own route answered, so what that answer left out no stream may have delivered), and later work on it need
 * not wait for the others.
 */
export async function fetchRecords(
  ctx: FetchRecordsContext,
  runs: RunTable,
  wanted: Int32Array,
  visit: (v: RecordVisit) => Promise<void>,
  other: (line: string) => void,
  ready?: (run: number, answered: boolean) => void,
): Promise<void> {
  // Per listed run, in typed arrays (issue 21: nothing per run on the heap): wanted, delivered by a
  // stream, suspect (a stream may have cut it short).
  const flags = new Uint8Array(runs.size);
  for (const run of wanted) flags[run] = WANTED;
  const wantedNumber = (runId: string) => {
    const run = runs.indexOf(runId);
    return run >= 0 && ((flags[run] as number) & WANTED) !== 0 ? run : -1;
  };
  const seen = new SeenRecords();
  const visitOnce = async (v: RecordVisit) => {
    if (!seen.first(v.run, v.seat, v.key)) return false;
    await visit(v);
    return true;
  };

  const readBulk = async (query: Record<string, string | number>) => {
    // completeNdjson keys each line, then hands the same line here: key it once.
    let keyedLine: string | undefined;
    let keyed: Keyed | undefined;
    const keyOnce = (line: string) => {
      if (line !== keyedLine) {
        keyedLine = line;
        keyed = keyLine(line);
      }
      return keyed;
    };
    const keyOf = (line: string) => keyOnce(line)?.key ?? `\u0001${line}`;
    let records = 0;
    let errors = 0;
    const others: string[] = [];
    // A cut splits at most the run being streamed (a run's records are contiguous), and the re-request
    // may answer that run with a partial_stream line instead of its remaining seats: the last run seen
    // before each re-request is fetched again on its own (its lines already staged are kept once).
    let attempts = 0;
    let attemptsAtLast = 0;
    let lastRun = -1;
    const counted = { getNdjson: (path: string, q?: Query) => (attempts++, ctx.client.getNdjson(path, q)) };
    const noteRestart = () => {
      if (attempts !== attemptsAtLast && lastRun >= 0) flags[lastRun] = (flags[lastRun] as number) | SUSPECT;
      attemptsAtLast = attempts;
    };
    ctx.tally.r.requests++;
    for await (const line of completeNdjson(counted, ctx.routes.bulk, { query, keyOf })) {
      noteRestart();
      const k = keyOnce(line);
      if (k === undefined) {
        errors++;
        others.push(line);
        continue;
      }
      const run = wantedNumber(k.runId);
      if (run < 0) {
        ctx.tally.r.droppedOutside++;
        continue;
      }
      flags[run] = (flags[run] as number) | DELIVERED;
      lastRun = run;
      if (await visitOnce(visitOf(run, line, k))) records++;
    }
    noteRestart();
    // A stream that ends cleanly at a line boundary looks whole: the spec gives the export no end marker
    // and no seat count (4.8), so a cut between two seats of one run shows nothing. Only the run streamed
    // last can be split so (a run's records are contiguous): an owner stream's last run is fetched again
    // on its own, one request per stream. Agent streams hold one seat per run: nothing to split.
    if (ctx.client.auth === "owner" && lastRun >= 0) flags[lastRun] = (flags[lastRun] as number) | SUSPECT;
    ctx.tally.r.bulkRecords += records;
    ctx.tally.r.streamErrors += errors;
    ctx.tally.emit({ type: "bulk", path: `${ctx.routes.bulk}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`, records, streamErrors: errors });
    return others;
  };

  if (ctx.perRun === true) {
    // Nothing streamed: every wanted run is missing below.
  } else if (ctx.client.auth === "owner") {
    const campaigns = [...new Set(Array.from(wanted, (run) => runs.campaignId(run)).filter((c): c is string => c !== undefined))];
    // Each stream holds a client slot while it is read; nothing inside the loops makes a request.
    // Streams finish in any order: their non-record lines are handed on in campaign order.
    const others = await Promise.all(campaigns.map((campaignId) => readBulk({ limit: OWNER_BULK_LIMIT, campaign_id: campaignId })));
    others.flat().forEach(other);
  } else if (wanted.length > 0) {
    (await readBulk({ limit: AGENT_BULK_LIMIT })).forEach(other);
  }

  const isMissing = (run: number) => ((flags[run] as number) & (DELIVERED | SUSPECT)) !== DELIVERED;
  const missing = wanted.filter(isMissing);
  if (ready !== undefined) for (const run of wanted) if (!isMissing(run)) ready(run, false);
  const others: { at: number; line: string }[] = [];
  // As they complete, a wide window at a time (issue 40: at 30% faults a run waits ~0.2 s on average, and
  // 64 such waits let ~300 runs a second through): a world's missing runs are never all in memory, and one
  // run waiting out a retry holds up no other. Each record goes to its run's place (staging keeps runs
  // apart); what has no place is put back in list order below.
  await asCompleted(missing, (run) => fetchOne(ctx, runs.runId(run)), async (entries, run, at) => {
    if (entries === null) return ready?.(run, false);
    for (const { text: line, value } of entries) {
      const k = keyedValue(value);
      if (k === undefined) others.push({ at, line });
      else await visitOnce(visitOf(run, line, k));
    }
    ready?.(run, true);
  }, WIDE_IN_FLIGHT);
  // Stable: lines of one answer stay in the order they came.
  for (const { line } of others.sort((a, b) => a.at - b.at)) other(line);
}

/** A run's records from its own route; null when the service defers it (409) or has no RL data (404). */
async function fetchOne(ctx: FetchRecordsContext, runId: string): Promise<{ text: string; value: unknown }[] | null> {
  ctx.tally.r.requests++;
  ctx.tally.r.perRunFetches++;
  try {
    const entries = await getRawRecordEntries(ctx.client, ctx.routes.run(runId));
    ctx.tally.emit({ type: "run_fetched", runId, records: entries.length });
    return entries;
  } catch (error) {
    if (error instanceof ConflictError) {
      ctx.tally.defer({ runId, reason: "conflict", conflict: error.reason });
      return null;
    }
    if (error instanceof NotFoundError && ctx.rl) {
      ctx.tally.r.noRlData.push(runId);
      return null;
    }
    throw error;
  }
}

/**
 * Keys a line by {@link recordFacts}, or by JSON.parse for what that declines. The run id is parsed apart
 * (never a slice of the line), so a key that outlives its line does not keep the line's text alive.
 */
function keyLine(line: string): Keyed | undefined {
  const facts = recordFacts(line);
  if (facts === undefined) return keyedValue(tryParseJson(line));
  const { runId, seatIndex, version } = facts;
  return runId === undefined || seatIndex === undefined ? undefined : { key: `${runId}#${seatIndex}`, seat: seatIndex, runId, version, value: undefined };
}

/** A parsed record keyed by `<run_id>#<seat_index>`; undefined for anything else. */
function keyedValue(value: unknown): Keyed | undefined {
  if (!isRecord(value) || typeof value.run_id !== "string" || !isRecord(value.seat)) return undefined;
  const seat = value.seat.seat_index;
  if (typeof seat !== "number") return undefined;
  const version = typeof value.scorecard_version === "number" ? value.scorecard_version : undefined;
  return { key: `${value.run_id}#${seat}`, seat, runId: value.run_id, version, value };
}

function visitOf(run: number, line: string, k: Keyed): RecordVisit {
  return { run, key: k.key, seat: k.seat, line, version: k.version, record: () => k.value ?? (JSON.parse(line) as Readonly<Record<string, unknown>>) };
}
