import { RL_DPO_EXPORT } from "./accounts.js";
import { requireEntitlement } from "./auth.js";
import { SAFETY_PREAMBLE, coachingFor, coachingItemBody, type CoachingItem } from "./coaching.js";
import { dpoRecords } from "./dpo-export.js";
import { conflict } from "./http-errors.js";
import { ID_PARAM_MAX, queryBool, queryInt, requiredString } from "./query.js";
import { bulkRl, bulkSft, type BulkQuery } from "./export-streams.js";
import { rlRecord } from "./records-rl.js";
import { sftRecord } from "./records-sft.js";
import { json, ndjson } from "./reply.js";
import { pinVersion, requireRlData, requireScored, type RunReader } from "./run-access.js";
import type { RunPlan } from "./run-plan.js";
import type { RequestContext, Route } from "./router.js";
import { scorecardBody } from "./scorecard-body.js";
import { seatScore } from "./seat-score.js";

/** Where one audience's result routes live, and how it reads them. */
export interface ResultRouting {
  /** Stem of the per-run routes, ending in `:run_id`. */
  readonly run: string;
  /** The SFT bulk export; RL's is under it at `/rl`. */
  readonly bulk: string;
  readonly pairDpo: string;
  readonly reader: (ctx: RequestContext) => RunReader;
  /** A bulk export's `limit` and filters, which differ by audience (spec section 8). */
  readonly bulkQuery: (ctx: RequestContext, reader: RunReader) => BulkQuery;
  /** `partial` faults apply (the owner's bulk exports). */
  readonly ownerBulk: boolean;
}

/**
 * One audience's result routes (spec 4.3, 4.7 to 4.10): the same rules for both audiences, over the
 * seats the reader sees.
 */
export function runResultRoutes({ run, bulk, pairDpo, reader, bulkQuery, ownerBulk }: ResultRouting): Route[] {
  const rlReader = (ctx: RequestContext) => {
    const r = reader(ctx);
    requireEntitlement(r.account, RL_DPO_EXPORT);
    return r;
  };
  const runPair = (ctx: RequestContext): [string, string] => [ctx.params.run_id ?? "", requiredString(ctx.url, "other", ID_PARAM_MAX)];
  const pair = (ctx: RequestContext): [string, string] => [requiredString(ctx.url, "run_id_a", ID_PARAM_MAX), requiredString(ctx.url, "run_id_b", ID_PARAM_MAX)];
  return [
    { method: "GET", path: `${run}/scorecard`, handler: (ctx) => scorecard(ctx, reader(ctx)) },
    { method: "GET", path: `${run}/coaching`, handler: (ctx) => coaching(ctx, reader(ctx)) },
    { method: "GET", path: `${run}/finetuning`, handler: (ctx) => runSft(ctx, reader(ctx)), perRun: true },
    { method: "GET", path: `${run}/finetuning/rl`, handler: (ctx) => runRl(ctx, rlReader(ctx)), perRun: true },
    { method: "GET", path: `${run}/dpo`, handler: (ctx) => dpo(ctx, rlReader(ctx), () => runPair(ctx)) },
    { method: "GET", path: pairDpo, handler: (ctx) => dpo(ctx, rlReader(ctx), () => pair(ctx)) },
    { method: "GET", path: bulk, handler: (ctx) => ndjson(bulkSft(ctx.world, ctx.epoch, bulkQuery(ctx, reader(ctx)))), ndjson: true, ownerBulk },
    { method: "GET", path: `${bulk}/rl`, handler: (ctx) => ndjson(bulkRl(ctx.world, ctx.epoch, bulkQuery(ctx, rlReader(ctx)))), ndjson: true, ownerBulk },
  ];
}

/** The seats' cards at the latest version, or the one `version` pins; none while unscored. The owner's carry the manifest. */
function scorecard(ctx: RequestContext, reader: RunReader) {
  const version = queryInt(ctx.url, "version", { min: 1 }, 0);
  const view = reader.run(ctx.params.run_id ?? "");
  const pinned = pinVersion(view, version);
  const style = { stamp: ctx.gateStamp, minPlayerMessages: ctx.world.platform.minPlayerMessages };
  const cards = pinned === 0 ? [] : view.seats.map((s) => scorecardBody(seatScore(ctx.world, view.plan, s.seatIndex, pinned), reader.audience, ctx.extraFields, style));
  return json({ scorecards: cards, ...(reader.audience === "owner" ? { manifest: manifest(view.plan) } : {}), versions: view.state.versions });
}

/** The platform advisory first, then the seats' generated items. */
function coaching(ctx: RequestContext, reader: RunReader) {
  const { plan, state, seats } = reader.run(ctx.params.run_id ?? "");
  const items: Partial<CoachingItem>[] = [];
  if (state.scored) {
    for (const seat of seats) {
      const item = coachingFor(ctx.world.seed, seatScore(ctx.world, plan, seat.seatIndex, state.version));
      if (item !== null) items.push(coachingItemBody(item, ctx.extraFields));
    }
  }
  return json({ coaching: [SAFETY_PREAMBLE, ...items] });
}

/**
 * A key reads a scored run's record. The owner reads a completed run's, scored or not (`scored: false`,
 * the spec lists no 409 here), with the transcript on request; a run not completed has none yet: 409.
 */
function runSft(ctx: RequestContext, reader: RunReader) {
  // Validated on agent routes too, where a transcript is never included.
  const includeTranscript = queryBool(ctx.url, "include_transcript", false);
  const view = reader.run(ctx.params.run_id ?? "");
  if (reader.audience === "agent") requireScored(view);
  else if (view.state.status !== "completed") throw conflict(`Run ${view.plan.runId} has not completed (status ${view.state.status})`);
  const options = { audience: reader.audience, includeTranscript };
  return json({ records: seatsServed(ctx, view.seats.map((s) => sftRecord(ctx.world, view.plan, view.state, s.seatIndex, options))) });
}

function runRl(ctx: RequestContext, reader: RunReader) {
  const view = reader.run(ctx.params.run_id ?? "");
  requireRlData(view);
  requireScored(view);
  return json({ records: seatsServed(ctx, view.seats.map((s) => rlRecord(ctx.world, view.plan, view.state, s.seatIndex))) });
}

/** One record per agent seat the reader sees in the first run that does not tie. `runIds` are read after authentication. */
function dpo(ctx: RequestContext, reader: RunReader, runIds: () => [string, string]) {
  const [idA, idB] = runIds();
  const a = reader.run(idA);
  const b = reader.run(idB);
  const agentSeats = a.seats.filter((s) => s.pilot === "agent").map((s) => s.seatIndex);
  return json({ records: dpoRecords(ctx.world, a, b, agentSeats) });
}

/** A run's records as a per-run export answers them: without the last seat under a `seats` fault (well formed, one seat short). */
function seatsServed<T>(ctx: RequestContext, records: T[]): T[] {
  return ctx.faults.dropSeat === true ? records.slice(0, -1) : records;
}

/** The run document manifest (spec 2.4). `judge.system_prompt` exists only server-side: never sent. */
function manifest(plan: RunPlan) {
  return {
    judge: { ...plan.campaign.judge },
    scenario_version_hash: plan.campaign.scenarioVersionHash,
    seat_snapshots: plan.seats.map((s) => ({
      seat_index: s.seatIndex,
      role: s.role,
      pilot: s.pilot,
      agent_key_id: s.agentKeyId,
      aic_config_id: s.aicConfigId,
    })),
  };
}
