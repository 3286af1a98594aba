import { RL_DPO_EXPORT } from "./accounts.js";
import { requireEntitlement, requireKey, type KeyCaller } from "./auth.js";
import { dpoRecords } from "./dpo-export.js";
import { agentRl, agentSft } from "./export-streams.js";
import { BULK_DEFAULT_LIMIT, ID_PARAM_MAX, queryBool, queryInt, requiredString } from "./query.js";
import { rlRecord } from "./records-rl.js";
import { sftRecord } from "./records-sft.js";
import { json, ndjson } from "./reply.js";
import { requireRlData, requireScored, seatedRun } from "./run-access.js";
import type { RequestContext, Route } from "./router.js";
import { seatsServed } from "./seats-served.js";

/** Agent export routes (spec 4.8, 4.9, 4.10): the calling key's seat only, never a transcript or manifest. */
export const agentExportRoutes: readonly Route[] = [
  { method: "GET", path: "/api/agent/runs/:run_id/finetuning", handler: runSft, perRun: true },
  { method: "GET", path: "/api/agent/runs/:run_id/finetuning/rl", handler: runRl, perRun: true },
  { method: "GET", path: "/api/agent/runs/:run_id/dpo", handler: runDpo },
  { method: "GET", path: "/api/agent/finetuning", handler: bulkSft, ndjson: true },
  { method: "GET", path: "/api/agent/finetuning/rl", handler: bulkRl, ndjson: true },
  { method: "GET", path: "/api/agent/finetuning/dpo", handler: pairDpo },
];

function runSft(ctx: RequestContext) {
  const caller = requireKey(ctx, ["read:scores"]);
  // Accepted and validated, but a transcript is never included on agent routes.
  queryBool(ctx.url, "include_transcript", false);
  const view = seatedRun(ctx.world, ctx.epoch, caller, ctx.params.run_id ?? "");
  requireScored(view);
  return json({ records: seatsServed(ctx, [sftRecord(ctx.world, view.plan, view.state, view.seat.seatIndex, { audience: "agent" })]) });
}

function runRl(ctx: RequestContext) {
  const caller = rlCaller(ctx);
  const view = seatedRun(ctx.world, ctx.epoch, caller, ctx.params.run_id ?? "");
  requireRlData(view);
  requireScored(view);
  return json({ records: seatsServed(ctx, [rlRecord(ctx.world, view.plan, view.state, view.seat.seatIndex)]) });
}

function runDpo(ctx: RequestContext) {
  const caller = rlCaller(ctx);
  return dpo(ctx, caller, ctx.params.run_id ?? "", requiredString(ctx.url, "other", ID_PARAM_MAX));
}

function pairDpo(ctx: RequestContext) {
  const caller = rlCaller(ctx);
  const a = requiredString(ctx.url, "run_id_a", ID_PARAM_MAX);
  return dpo(ctx, caller, a, requiredString(ctx.url, "run_id_b", ID_PARAM_MAX));
}

function dpo(ctx: RequestContext, caller: KeyCaller, runA: string, runB: string) {
  const a = seatedRun(ctx.world, ctx.epoch, caller, runA);
  const b = seatedRun(ctx.world, ctx.epoch, caller, runB);
  return json({ records: dpoRecords(ctx.world, a, b, [a.seat.seatIndex]) });
}

function bulkSft(ctx: RequestContext) {
  const caller = requireKey(ctx, ["read:scores"]);
  return ndjson(agentSft(ctx.world, ctx.epoch, caller, agentLimit(ctx)));
}

function bulkRl(ctx: RequestContext) {
  const caller = rlCaller(ctx);
  return ndjson(agentRl(ctx.world, ctx.epoch, caller, agentLimit(ctx)));
}

/** `read:scores` and the `rl_dpo_export` entitlement. */
function rlCaller(ctx: RequestContext): KeyCaller {
  const caller = requireKey(ctx, ["read:scores"]);
  requireEntitlement(caller.account, RL_DPO_EXPORT);
  return caller;
}

/** From 1 up; values over the platform cap are clamped to it, as the spec says "capped". */
function agentLimit(ctx: RequestContext): number {
  return Math.min(queryInt(ctx.url, "limit", { min: 1 }, BULK_DEFAULT_LIMIT), ctx.world.platform.agentExportLimitCap);
}
