import { requireOwner } from "./auth.js";
import { SAFETY_PREAMBLE, coachingFor, coachingItemBody, type CoachingItem } from "./coaching.js";
import { queryInt } from "./query.js";
import { json, jsonArrayField } from "./reply.js";
import { ownedRun, pinVersion } from "./run-access.js";
import { runsNewestFirst, type RunPlan } from "./run-plan.js";
import type { RequestContext, Route } from "./router.js";
import { scorecardBody } from "./scorecard-body.js";
import { runScores } from "./seat-score.js";
import { transcript } from "./transcript.js";
import { iso } from "./world-clock.js";

/** Owner result routes (spec 4.7): every seat, plus owner-only fields. */
export const ownerRoutes: readonly Route[] = [
  { method: "GET", path: "/api/evals", handler: listRuns },
  { method: "GET", path: "/api/evals/:run_id/scorecard", handler: scorecard },
  { method: "GET", path: "/api/evals/:run_id/coaching", handler: coaching },
  { method: "GET", path: "/api/evals/:run_id/transcript", handler: runTranscript },
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

function scorecard(ctx: RequestContext) {
  const account = requireOwner(ctx);
  const version = queryInt(ctx.url, "version", { min: 1 }, 0);
  const view = ownedRun(ctx.world, ctx.epoch, account, ctx.params.run_id ?? "");
  const { plan, state } = view;
  const pinned = pinVersion(view, version);
  const scorecards = pinned === 0 ? [] : runScores(ctx.world, plan, pinned).map((s) => scorecardBody(s, "owner", ctx.extraFields, { stamp: ctx.gateStamp, minPlayerMessages: ctx.world.platform.minPlayerMessages }));
  return json({ scorecards, manifest: manifest(plan), versions: state.versions });
}

function coaching(ctx: RequestContext) {
  const account = requireOwner(ctx);
  const { plan, state } = ownedRun(ctx.world, ctx.epoch, account, ctx.params.run_id ?? "");
  const items: Partial<CoachingItem>[] = [];
  if (state.scored) {
    for (const score of runScores(ctx.world, plan, state.version)) {
      const item = coachingFor(ctx.world.seed, score);
      if (item !== null) items.push(coachingItemBody(item, ctx.extraFields));
    }
  }
  return json({ coaching: [SAFETY_PREAMBLE, ...items] });
}

function runTranscript(ctx: RequestContext) {
  const account = requireOwner(ctx);
  const { plan, state } = ownedRun(ctx.world, ctx.epoch, account, ctx.params.run_id ?? "");
  return json({ messages: transcript(ctx.world, plan, state.turnCount) });
}

/** The run document manifest (spec 2.4). `judge.system_prompt` exists only server-side: never sent. */
export function manifest(plan: RunPlan) {
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

