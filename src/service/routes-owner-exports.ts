import { RL_DPO_EXPORT } from "./accounts.js";
import { requireEntitlement, requireOwner } from "./auth.js";
import { dpoRecords } from "./dpo-export.js";
import { ownerRl, ownerSft, type OwnerBulkQuery } from "./export-streams.js";
import { BULK_DEFAULT_LIMIT, ID_PARAM_MAX, queryBool, queryInt, queryString, requiredString } from "./query.js";
import { rlRecord } from "./records-rl.js";
import { sftRecord } from "./records-sft.js";
import { json, ndjson } from "./reply.js";
import { ownedRun, requireRlData, requireScored } from "./run-access.js";
import type { RequestContext, Route } from "./router.js";
import { conflict } from "./http-errors.js";
import { seatsServed } from "./seats-served.js";

/** Owner bulk `limit`: 1 to 500 (spec section 8). */
const LIMIT = { min: 1, max: 500 } as const;

/** Owner export routes (spec 4.8, 4.9, 4.10): every seat, with the manifest on SFT records. */
export const ownerExportRoutes: readonly Route[] = [
  { method: "GET", path: "/api/evals/finetuning", handler: bulkSft, ndjson: true, ownerBulk: true },
  { method: "GET", path: "/api/evals/finetuning/rl", handler: bulkRl, ndjson: true, ownerBulk: true },
  { method: "GET", path: "/api/evals/dpo", handler: pairDpo },
  { method: "GET", path: "/api/evals/:run_id/finetuning", handler: runSft, perRun: true },
  { method: "GET", path: "/api/evals/:run_id/finetuning/rl", handler: runRl, perRun: true },
  { method: "GET", path: "/api/evals/:run_id/dpo", handler: runDpo },
];

/**
 * Every seat of a run. A completed run not yet scored answers records with `scored: false` (the
 * spec lists no 409 here); a run that has not completed has no record yet: 409.
 */
function runSft(ctx: RequestContext) {
  const account = requireOwner(ctx);
  const includeTranscript = queryBool(ctx.url, "include_transcript", false);
  const view = ownedRun(ctx.world, ctx.epoch, account, ctx.params.run_id ?? "");
  if (view.state.status !== "completed") throw conflict(`Run ${view.plan.runId} has not completed (status ${view.state.status})`);
  const records = view.plan.seats.map((s) => sftRecord(ctx.world, view.plan, view.state, s.seatIndex, { audience: "owner", includeTranscript }));
  return json({ records: seatsServed(ctx, records) });
}

function runRl(ctx: RequestContext) {
  const account = requireOwner(ctx);
  requireEntitlement(account, RL_DPO_EXPORT);
  const view = ownedRun(ctx.world, ctx.epoch, account, ctx.params.run_id ?? "");
  requireRlData(view);
  requireScored(view);
  return json({ records: seatsServed(ctx, view.plan.seats.map((s) => rlRecord(ctx.world, view.plan, view.state, s.seatIndex))) });
}

function runDpo(ctx: RequestContext) {
  return dpo(ctx, () => [ctx.params.run_id ?? "", requiredString(ctx.url, "other", ID_PARAM_MAX)]);
}

function pairDpo(ctx: RequestContext) {
  return dpo(ctx, () => [requiredString(ctx.url, "run_id_a", ID_PARAM_MAX), requiredString(ctx.url, "run_id_b", ID_PARAM_MAX)]);
}

/** Both runs' agent seats: one record per seat that does not tie. `runIds` is read after authentication. */
function dpo(ctx: RequestContext, runIds: () => [string, string]) {
  const account = requireOwner(ctx);
  requireEntitlement(account, RL_DPO_EXPORT);
  const [idA, idB] = runIds();
  const a = ownedRun(ctx.world, ctx.epoch, account, idA);
  const b = ownedRun(ctx.world, ctx.epoch, account, idB);
  const agentSeats = a.plan.seats.filter((s) => s.pilot === "agent").map((s) => s.seatIndex);
  return json({ records: dpoRecords(ctx.world, a, b, agentSeats) });
}

function bulkSft(ctx: RequestContext) {
  const account = requireOwner(ctx);
  return ndjson(ownerSft(ctx.world, ctx.epoch, bulkQuery(ctx, account)));
}

function bulkRl(ctx: RequestContext) {
  const account = requireOwner(ctx);
  requireEntitlement(account, RL_DPO_EXPORT);
  return ndjson(ownerRl(ctx.world, ctx.epoch, bulkQuery(ctx, account)));
}

function bulkQuery(ctx: RequestContext, account: OwnerBulkQuery["account"]): OwnerBulkQuery {
  return {
    account,
    limit: queryInt(ctx.url, "limit", LIMIT, BULK_DEFAULT_LIMIT),
    campaignId: queryString(ctx.url, "campaign_id", { max: ID_PARAM_MAX }),
    faults: ctx.faults,
  };
}
