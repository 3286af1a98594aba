import { requireOwner } from "./auth.js";
import { HttpError } from "./http-errors.js";
import { json } from "./reply.js";
import type { Handler, RequestContext, Route } from "./router.js";

/** The emulator's own control routes: owner token, never faulted. */
export const emulatorRoutes: readonly Route[] = [
  { method: "POST", path: "/_emulator/advance", handler: advance, faultable: false },
  { method: "GET", path: "/_emulator/state", handler: state, faultable: false },
];

/** Moves the world one epoch. */
function advance(ctx: RequestContext) {
  requireOwner(ctx);
  ctx.world.advance();
  return json({ epoch: ctx.world.epoch });
}

function state(ctx: RequestContext) {
  requireOwner(ctx);
  return json({ seed: ctx.world.seed, runs: ctx.world.runCount, epoch: ctx.world.epoch });
}

const notEmulated: Handler = (ctx) => {
  throw new HttpError(501, "not_implemented", `${ctx.method} ${ctx.url.pathname} is part of the service but not of the emulator`);
};

/**
 * Routes of the spec the emulator does not serve (play, setup, leaderboard): 501 names them, so a
 * client sees "not emulated" rather than a 404 it could mistake for a missing run.
 */
export const notEmulatedRoutes: readonly Route[] = (
  [
    ["GET", "/api/agent/scenarios"],
    ["GET", "/api/agent/runs/:run_id/scene"],
    ["POST", "/api/agent/runs/:run_id/action"],
    ["GET", "/api/agent/runs/:run_id/join"],
    ["GET", "/api/agent/runs/:run_id/snapshots"],
    ["POST", "/api/agent/runs/:run_id/rescore"],
    ["POST", "/api/agent/batches"],
    ["POST", "/api/agent/batches/:batch_id/cancel"],
    ["POST", "/api/agent/suites/:suite_key/:version/submissions"],
    ["GET", "/api/agent/suites/:suite_key/:version/submissions"],
    ["GET", "/api/agent/suites/:suite_key/:version/submissions/:submission_id"],
    ["GET", "/api/leaderboard/:suite_key/:version"],
    ["POST", "/api/scenarios"],
    ["PATCH", "/api/scenarios/:scenario_id"],
    ["POST", "/api/scenarios/:scenario_id/copy"],
    ["POST", "/api/campaigns/:campaign_id/evals"],
    ["POST", "/api/campaigns/:campaign_id/evals/:run_id/launch"],
    ["GET", "/api/evals/:run_id/metrics"],
    ["GET", "/api/evals/:run_id/snapshots"],
    ["GET", "/api/evals/:run_id/trace"],
    ["GET", "/api/evals/:run_id/diff"],
  ] as const
).map(([method, path]) => ({ method, path, handler: notEmulated, faultable: false }));
