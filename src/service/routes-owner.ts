import { requireOwner } from "./auth.js";
import type { BulkQuery } from "./export-streams.js";
import { BULK_DEFAULT_LIMIT, ID_PARAM_MAX, queryInt, queryString } from "./query.js";
import { json, jsonArrayField } from "./reply.js";
import { ownerReader, type RunReader } from "./run-access.js";
import { runResultRoutes } from "./run-result-routes.js";
import { runsNewestFirst } from "./run-plan.js";
import type { RequestContext, Route } from "./router.js";
import { transcript } from "./transcript.js";
import { iso } from "./world-clock.js";

/** Owner bulk `limit`: 1 to 500 (spec section 8). */
const LIMIT = { min: 1, max: 500 } as const;

/** Owner routes (spec 4.7 to 4.10): every seat, plus owner-only fields, and the manifest on SFT records. */
export const ownerRoutes: readonly Route[] = [
  { method: "GET", path: "/api/evals", handler: listRuns },
  { method: "GET", path: "/api/evals/:run_id/transcript", handler: runTranscript },
  ...runResultRoutes({ run: "/api/evals/:run_id", bulk: "/api/evals/finetuning", pairDpo: "/api/evals/dpo", reader: ownerReader, bulkQuery, ownerBulk: true }),
];

/** Every run of the account, newest first; streamed, since a large world has tens of thousands. */
function listRuns(ctx: RequestContext) {
  const account = requireOwner(ctx);
  const { world, epoch } = ctx;
  function* summaries() {
    for (const plan of runsNewestFirst(world, account.index)) {
      const state = world.state(plan, epoch);
      yield { run_id: plan.runId, campaign_id: plan.campaign.campaignId, status: state.status, scored: state.scored, created_at: iso(plan.createdAt) };
    }
  }
  return jsonArrayField("runs", summaries());
}

function runTranscript(ctx: RequestContext) {
  const { plan, state } = ownerReader(ctx).run(ctx.params.run_id ?? "");
  return json({ messages: transcript(ctx.world, plan, state.turnCount) });
}

function bulkQuery(ctx: RequestContext, reader: RunReader): BulkQuery {
  return {
    reader,
    limit: queryInt(ctx.url, "limit", LIMIT, BULK_DEFAULT_LIMIT),
    campaignId: queryString(ctx.url, "campaign_id", { max: ID_PARAM_MAX }),
    faults: ctx.faults,
  };
}
