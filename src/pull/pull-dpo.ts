import { BadRequestError, ConflictError } from "../http/index.js";
import { fetchRecords, type FetchRecordsContext } from "./fetch-records.js";
import { isRecord } from "../core/is-record.js";
import type { ListedRun } from "./list-runs.js";
import { inScenarioPartition, type Partition } from "./partition.js";
import { planPairs, type DpoOptions, type PairCandidate, type PlannedPair } from "./dpo-pairs.js";
import { getRawRecords } from "./raw-records.js";
import { noteShare } from "./note-share.js";
import type { RunTable } from "./run-table.js";
import { knownVersion, noteVersion, scoresOf, type RunScore, type Scoring } from "./scorecards.js";
import type { SuiteBook } from "../formats/suite-book.js";
import { GateBook } from "../formats/gate-book.js";
import { fetchRlContext } from "./fetch-rl-context.js";
import { asCompleted } from "./as-completed.js";
import { Staging } from "./staging.js";

/**
 * DPO records of pairs among the scored, unflagged, ungated (and readable) runs of each scenario in this job's share
 * (scenarios, not runs, are partitioned: a pair needs both its runs in one job). Runs without a
 * per-seat trace are left out too: the service answers 400 "provenance missing" for them.
 *
 * `flagged`, `reconstruction` (and, for agent keys, the scenario) come from the runs' SFT records:
 * neither the run list nor the scorecard carries them (spec 2.4, 2.7), and the bulk SFT stream gives
 * every run's records in one request per campaign (agent: one request), per-run fetches only filling
 * its gaps.
 */
export async function* pullDpo(
  ctx: FetchRecordsContext,
  spoolDir: string,
  listed: RunTable,
  runs: readonly ListedRun[],
  partition: Partition | undefined,
  dpo: DpoOptions,
  scoring: Scoring,
  context: { readonly spoolDir: string; readonly found: { context: string | null } } | null = null,
  suites?: SuiteBook,
): AsyncGenerator<string | Buffer> {
  const { tally } = ctx;
  const unpairable = new Set<string>();
  // Runs whose SFT records were seen: one deferred on its SFT route (409) cannot be vetted, so is not paired.
  const known = new Set<string>();
  const campaignOf = new Map<string, string>();
  // The scorecard version each run's SFT records carry, by run number.
  const versions = new Float64Array(listed.size).fill(Number.NaN);
  const readSft = (wanted: readonly ListedRun[]) =>
    fetchRecords(
      { ...ctx, rl: false },
      listed,
      numbersOf(wanted),
      async (visit) => {
        const runId = listed.runId(visit.run);
        const record = visit.record();
        known.add(runId);
        noteVersion(versions, visit.run, record.scorecard_version);
        // A pair needs a per-seat trace on both sides (spec 4.10: else 400 "provenance missing").
        if (record.flagged === true || record.reconstruction !== "per_seat_trace") unpairable.add(runId);
        const campaign = isRecord(record.scenario) ? record.scenario.campaign_id : undefined;
        if (typeof campaign === "string" && !campaignOf.has(runId)) campaignOf.set(runId, campaign);
      },
      // partial_stream lines of the SFT streams are not part of a DPO spool; their runs are fetched one by one.
      () => {},
    );

  let share: ListedRun[];
  if (ctx.client.auth === "owner") {
    share = runs.filter((run) => run.campaignId !== undefined && inScenarioPartition(run.campaignId, partition));
    await readSft(share.filter((run) => run.scored));
  } else {
    // Agent run summaries name no scenario: read the SFT records of every scored run first.
    await readSft(runs.filter((run) => run.scored));
    share = runs.filter((run) => {
      const campaign = run.campaignId ?? campaignOf.get(run.runId);
      // Unscored agent runs have no known scenario yet: every job reports them (see report notes).
      return campaign === undefined ? !run.scored : inScenarioPartition(campaign, partition);
    });
  }
  noteShare(listed, numbersOf(share), tally);
  const scored = share.filter((run) => run.scored);

  const scores = new Map<string, RunScore>();
  await scoresOf(ctx.client, ctx.routes, scored, (run) => run.runId, (run) => knownVersion(versions, run.order), scoring, tally, (score, run) => void scores.set(run.runId, score));
  // The one gating rule: a pair's run as a DPO record's (gate-book.ts), so a gated or unreadable run is not paired.
  const book = new GateBook(scoring.gates);

  const candidates: PairCandidate[] = [];
  for (const run of scored) {
    const composite = scores.get(run.runId)?.composite;
    // The one decontamination rule (suite-book.ts): a run on a benchmark scenario is never paired.
    const hash = scores.get(run.runId)?.hash;
    const campaignId = run.campaignId ?? campaignOf.get(run.runId);
    if (suites !== undefined && suites.excludesRun(run.runId, hash, campaignId)) {
      tally.r.pairs.excluded++;
      continue;
    }
    if (composite === undefined || campaignId === undefined || !known.has(run.runId) || unpairable.has(run.runId) || book.run(run.runId) !== "open") {
      tally.r.pairs.excluded++;
      continue;
    }
    candidates.push({ runId: run.runId, campaignId, composite, order: run.order });
  }
  const pairs = planPairs(candidates, dpo);
  tally.r.pairs.planned = pairs.length;

  // A window of requests taken as they complete, parked on disk by pair until the last is in, then
  // handed on in pair order: neither every pair's request nor every pair's lines at once.
  const inPairs = new Set<string>();
  const staging = await Staging.open(spoolDir);
  try {
    await asCompleted(
      pairs,
      (pair) => fetchPair(ctx, pair),
      async (lines, pair, index) => {
        if (lines.length > 0) [pair.runIdA, pair.runIdB].forEach((id) => inPairs.add(id));
        tally.r.records += lines.length;
        for (const line of lines) await staging.add(index, line);
      },
    );
    for (let index = 0; index < pairs.length; index++) yield* staging.bytes(index);
  } finally {
    await staging.dispose();
  }
  tally.r.runsFetched = inPairs.size;
  if (context !== null) context.found.context = await fetchRlContext(ctx, listed, numbersOf(runs.filter((run) => inPairs.has(run.runId))), context.spoolDir);
}

async function fetchPair(ctx: FetchRecordsContext, pair: PlannedPair): Promise<string[]> {
  const { tally } = ctx;
  const event = (outcome: "fetched" | "tie" | "error" | "deferred") => tally.emit({ type: "pair", runIdA: pair.runIdA, runIdB: pair.runIdB, outcome });
  tally.r.requests++;
  try {
    const lines = await getRawRecords(ctx.client, ctx.routes.dpo, { run_id_a: pair.runIdA, run_id_b: pair.runIdB });
    tally.r.pairs.fetched++;
    event("fetched");
    return lines;
  } catch (error) {
    if (error instanceof ConflictError) {
      if (error.reason === "tie") tally.r.pairs.ties++;
      else tally.r.pairs.deferred++;
      event(error.reason === "tie" ? "tie" : "deferred");
      return [];
    }
    if (error instanceof BadRequestError) {
      tally.r.pairs.errors.push({ runIdA: pair.runIdA, runIdB: pair.runIdB, message: error.message });
      event("error");
      return [];
    }
    throw error;
  }
}

/** The RunTable numbers of `runs`. */
function numbersOf(runs: readonly ListedRun[]): Int32Array {
  return Int32Array.from(runs, (run) => run.order);
}
