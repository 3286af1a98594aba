import { requireKey } from "./auth.js";
import { batchBody } from "./batch-body.js";
import type { BulkQuery } from "./export-streams.js";
import { blockRunsNewestFirst, runsNewestFirst, type RunPlan } from "./run-plan.js";
import { notFound } from "./http-errors.js";
import { BULK_DEFAULT_LIMIT, ID_PARAM_MAX, queryInt, queryString } from "./query.js";
import { json } from "./reply.js";
import { keyReader, type RunReader } from "./run-access.js";
import { runResultRoutes } from "./run-result-routes.js";
import type { RequestContext, Route } from "./router.js";
import { statusBody } from "./status-body.js";

/** Most items in the agent run list and the batch list (spec section 8). */
const LIST_MAX = 100;

/**
 * Agent routes (spec 4.2, 4.3, 4.5, 4.6, 4.8 to 4.10): the calling key's seat only, never a transcript or
 * manifest.
 */
export const agentRoutes: readonly Route[] = [
  { method: "GET", path: "/api/agent/runs", handler: listRuns },
  { method: "GET", path: "/api/agent/runs/:run_id/status", handler: status },
  { method: "GET", path: "/api/agent/batches", handler: listBatches },
  { method: "GET", path: "/api/agent/batches/:batch_id", handler: batchDetail },
  { method: "GET", path: "/api/agent/suites", handler: suites },
  ...runResultRoutes({ run: "/api/agent/runs/:run_id", bulk: "/api/agent/finetuning", pairDpo: "/api/agent/finetuning/dpo", reader: keyReader, bulkQuery, ownerBulk: false }),
];

/** Runs where the key is seated, newest first, at most 100; a bare array. */
function listRuns(ctx: RequestContext) {
  const reader = keyReader(ctx, ["play"]);
  const batchId = queryString(ctx.url, "batch_id", { max: ID_PARAM_MAX });
  const { world } = ctx;
  const account = reader.account.index;
  const summaries: { run_id: string; status: string | null; scored: boolean }[] = [];
  if (!reader.seatable) return json(summaries);
  let plans: Iterable<RunPlan> = runsNewestFirst(world, account);
  if (batchId !== undefined) {
    const block = world.findBatch(batchId, account);
    plans = block === null ? [] : blockRunsNewestFirst(world, block);
  }
  for (const plan of plans) {
    if (reader.seatsIn(plan).length === 0) continue;
    const state = world.state(plan, ctx.epoch);
    summaries.push({ run_id: plan.runId, status: state.status, scored: state.scored });
    if (summaries.length >= LIST_MAX) break;
  }
  return json(summaries);
}

function status(ctx: RequestContext) {
  const view = keyReader(ctx, ["play"]).run(ctx.params.run_id ?? "");
  return json(statusBody(ctx.world.seed, view));
}

function listBatches(ctx: RequestContext) {
  const caller = requireKey(ctx, ["manage:runs"]);
  const batches = [];
  for (const block of ctx.world.batchesNewestFirst(caller.account.index)) {
    batches.push(batchBody(ctx.world, block, ctx.epoch, true));
    if (batches.length >= LIST_MAX) break;
  }
  return json({ batches });
}

function batchDetail(ctx: RequestContext) {
  const caller = requireKey(ctx, ["manage:runs"]);
  const batchId = ctx.params.batch_id ?? "";
  const block = ctx.world.findBatch(batchId, caller.account.index);
  if (block === null) throw notFound(`Batch ${batchId} not found`);
  return json(batchBody(ctx.world, block, ctx.epoch, false));
}

/** Public and unlisted suites only, released by now: internal ones are never returned to key callers. */
function suites(ctx: RequestContext) {
  requireKey(ctx, ["read:scores"]);
  const now = ctx.world.clock.now(ctx.epoch);
  return json({ suites: ctx.world.suites.filter((s) => s.visibility !== "internal" && Date.parse(s.released_at) <= now) });
}

/** `limit` from 1 up; values over the platform cap are clamped to it, as the spec says "capped". */
function bulkQuery(ctx: RequestContext, reader: RunReader): BulkQuery {
  const limit = Math.min(queryInt(ctx.url, "limit", { min: 1 }, BULK_DEFAULT_LIMIT), ctx.world.platform.agentExportLimitCap);
  return { reader, limit, faults: ctx.faults };
}
