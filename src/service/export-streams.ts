import type { SftRecord } from "../formats/sft.js";
import type { RlRecord } from "../formats/rl.js";
import type { StreamErrorLine } from "../formats/stream-error.js";
import type { Account } from "./accounts.js";
import type { KeyCaller } from "./auth.js";
import type { RequestFaults } from "./fault-injector.js";
import { seatOf, type RunView } from "./run-access.js";
import { runsNewestFirst, type RunPlan } from "./run-plan.js";
import type { RunState } from "./run-state.js";
import { rlRecord } from "./records-rl.js";
import { sftRecord } from "./records-sft.js";
import type { World } from "./world.js";

/**
 * Runs of an account, newest first, that pass `accept`, up to `limit` of them. There is no cursor in
 * the spec's bulk exports, so a bulk request always reads from the newest run.
 */
export function* selectRuns(world: World, epoch: number, account: number, limit: number, accept: (plan: RunPlan, state: RunState) => boolean): Generator<RunView> {
  let taken = 0;
  if (limit <= 0) return;
  for (const plan of runsNewestFirst(world, account)) {
    const state = world.state(plan, epoch);
    if (!accept(plan, state)) continue;
    yield { plan, state };
    if (++taken >= limit) return;
  }
}

/** Scored runs where the key is seated; with `rl`, only runs that have RL data. */
function* seatedScored(world: World, epoch: number, caller: KeyCaller, limit: number, rl: boolean): Generator<RunView & { seatIndex: number }> {
  const keyId = caller.key.apiKeyId;
  // A key no seating rule knows (e.g. one created at runtime) is seated nowhere: skip the scan.
  if (world.seatPools[caller.account.index]?.has(keyId) !== true) return;
  const accept = (plan: RunPlan, state: RunState) =>
    state.scored && (!rl || plan.reconstruction !== "no_session") && seatOf(plan, keyId) !== undefined;
  for (const view of selectRuns(world, epoch, caller.account.index, limit, accept)) {
    yield { ...view, seatIndex: seatOf(view.plan, keyId)?.seatIndex ?? 0 };
  }
}

/** Agent SFT bulk export: the calling key's seat of each scored run it is seated in. */
export function* agentSft(world: World, epoch: number, caller: KeyCaller, limit: number): Generator<SftRecord> {
  for (const v of seatedScored(world, epoch, caller, limit, false)) yield sftRecord(world, v.plan, v.state, v.seatIndex, { audience: "agent" });
}

/** Agent RL bulk export. */
export function* agentRl(world: World, epoch: number, caller: KeyCaller, limit: number): Generator<RlRecord> {
  for (const v of seatedScored(world, epoch, caller, limit, true)) yield rlRecord(world, v.plan, v.state, v.seatIndex);
}

export interface OwnerBulkQuery {
  readonly account: Account;
  readonly limit: number;
  readonly campaignId: string | undefined;
  readonly faults: RequestFaults;
}

/**
 * Owner SFT bulk export: every seat of each completed run, scored or not (an unscored run's records
 * say `scored: false` and carry no scores). A run that "fails to process" yields the error line.
 */
export function* ownerSft(world: World, epoch: number, query: OwnerBulkQuery): Generator<SftRecord | StreamErrorLine> {
  const accept = (plan: RunPlan, state: RunState) => state.status === "completed" && inCampaign(plan, query.campaignId);
  yield* ownerBulk(world, epoch, query, accept, (v, seat) => sftRecord(world, v.plan, v.state, seat, { audience: "owner" }));
}

/** Owner RL bulk export: every seat of each scored run that has RL data. */
export function* ownerRl(world: World, epoch: number, query: OwnerBulkQuery): Generator<RlRecord | StreamErrorLine> {
  const accept = (plan: RunPlan, state: RunState) => state.scored && plan.reconstruction !== "no_session" && inCampaign(plan, query.campaignId);
  yield* ownerBulk(world, epoch, query, accept, (v, seat) => rlRecord(world, v.plan, v.state, seat));
}

function* ownerBulk<T>(
  world: World,
  epoch: number,
  query: OwnerBulkQuery,
  accept: (plan: RunPlan, state: RunState) => boolean,
  record: (view: RunView, seatIndex: number) => T,
): Generator<T | StreamErrorLine> {
  // A campaign the account does not have matches nothing: answer at once instead of scanning every run.
  const campaigns = world.campaigns[query.account.index] ?? [];
  if (query.campaignId !== undefined && !campaigns.some((c) => c.campaignId === query.campaignId)) return;
  let runIndex = 0;
  for (const view of selectRuns(world, epoch, query.account.index, query.limit, accept)) {
    if (query.faults.partialAt(runIndex)) yield { error: "partial_stream", run_index: runIndex };
    else for (const seat of view.plan.seats) yield record(view, seat.seatIndex);
    runIndex++;
  }
}

function inCampaign(plan: RunPlan, campaignId: string | undefined): boolean {
  return campaignId === undefined || plan.campaign.campaignId === campaignId;
}
