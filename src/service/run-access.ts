import type { Account, Scope } from "./accounts.js";
import { requireKey, requireOwner } from "./auth.js";
import { conflict, forbidden, notFound } from "./http-errors.js";
import type { RequestContext } from "./router.js";
import type { RunPlan, SeatPlan } from "./run-plan.js";
import type { RunState } from "./run-state.js";
import type { Audience } from "./scorecard-body.js";
import type { World } from "./world.js";

/** A run the caller may see, with its state at the request's epoch. */
export interface RunView {
  readonly plan: RunPlan;
  readonly state: RunState;
}

/** The run, if the account owns it; 404 otherwise (missing and not owned look the same). */
function ownedRun(world: World, epoch: number, account: Account, runId: string): RunView {
  const plan = world.findRun(runId);
  if (plan === null || plan.account !== account.index) throw notFound(`Run ${runId} not found`);
  return { plan, state: world.state(plan, epoch) };
}

/** A run as its reader may see it: the seats it may read. */
export interface ReadRun extends RunView {
  readonly seats: readonly SeatPlan[];
}

/**
 * Who reads a run's results. The owner (portal token) sees every seat; an API key with `read:scores`
 * sees its own seat, in runs it is seated in. The result routes of both are one rule over this.
 */
export interface RunReader {
  readonly audience: Audience;
  readonly account: Account;
  /** 404 when missing or not owned; for a key, 403 when it is not seated. */
  run(runId: string): ReadRun;
  /** The seats of one of the account's runs it reads: none, for a key not seated there. */
  seatsIn(plan: RunPlan): readonly SeatPlan[];
  /** False for a key no seating rule knows (e.g. one created at runtime): seated nowhere, no scan needed. */
  readonly seatable: boolean;
}

/** The owner's reader: 401 without a portal session token. */
export function ownerReader(ctx: RequestContext): RunReader {
  const account = requireOwner(ctx);
  const run = (runId: string) => {
    const view = ownedRun(ctx.world, ctx.epoch, account, runId);
    return { ...view, seats: view.plan.seats };
  };
  return { audience: "owner", account, run, seatsIn: (plan) => plan.seats, seatable: true };
}

/** An API key's reader: 401 without a valid key, 403 without the scopes (`read:scores` unless named). */
export function keyReader(ctx: RequestContext, scopes: readonly Scope[] = ["read:scores"]): RunReader {
  const caller = requireKey(ctx, scopes);
  const keyId = caller.key.apiKeyId;
  const seatsIn = (plan: RunPlan) => {
    const seat = plan.seats.find((s) => s.agentKeyId === keyId);
    return seat === undefined ? [] : [seat];
  };
  const run = (runId: string) => {
    const view = ownedRun(ctx.world, ctx.epoch, caller.account, runId);
    const seats = seatsIn(view.plan);
    if (seats.length === 0) throw forbidden(`API key is not seated in run ${runId}`);
    return { ...view, seats };
  };
  return { audience: "agent", account: caller.account, run, seatsIn, seatable: ctx.world.seatPools[caller.account.index]?.has(keyId) === true };
}

/**
 * The scorecard version to answer: the one asked for (`?version`, already checked to be from 1 up), or
 * the latest (0 while unscored). 404 for a version that does not exist yet.
 */
export function pinVersion(view: RunView, asked: number): number {
  if (asked > view.state.versions.length) throw notFound(`Run ${view.plan.runId} has no scorecard version ${asked}`);
  return asked === 0 ? view.state.version : asked;
}

/** 409 unless the run is scored. */
export function requireScored(view: RunView): void {
  if (!view.state.scored) throw conflict(`Run ${view.plan.runId} is not yet scored (status ${view.state.status})`);
}

/** 404 for a run without a session: it has no RL data (spec 4.9). */
export function requireRlData(view: RunView): void {
  if (view.plan.reconstruction === "no_session") throw notFound(`Run ${view.plan.runId} has no RL data: it has no session`);
}
