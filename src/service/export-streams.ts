import type { SftRecord } from "../formats/sft.js";
import type { RlRecord } from "../formats/rl.js";
import type { StreamErrorLine } from "../formats/stream-error.js";
import type { RequestFaults } from "./fault-injector.js";
import type { RunReader, RunView } from "./run-access.js";
import { runsNewestFirst, type RunPlan } from "./run-plan.js";
import type { RunState } from "./run-state.js";
import { rlRecord } from "./records-rl.js";
import { sftRecord } from "./records-sft.js";
import type { World } from "./world.js";

export interface BulkQuery {
  readonly reader: RunReader;
  readonly limit: number;
  /** Owner routes only. */
  readonly campaignId?: string | undefined;
  readonly faults: RequestFaults;
}

/**
 * SFT bulk export: the seats the reader sees of each run. A key reads scored runs; the owner every
 * completed run, scored or not (an unscored run's records say `scored: false` and carry no scores).
 */
export function* bulkSft(world: World, epoch: number, query: BulkQuery): Generator<SftRecord | StreamErrorLine> {
  const { audience } = query.reader;
  const accept = (_plan: RunPlan, state: RunState) => (audience === "owner" ? state.status === "completed" : state.scored);
  yield* bulk(world, epoch, query, accept, (v, seat) => sftRecord(world, v.plan, v.state, seat, { audience }));
}

/** RL bulk export: the seats the reader sees of each scored run that has RL data. */
export function* bulkRl(world: World, epoch: number, query: BulkQuery): Generator<RlRecord | StreamErrorLine> {
  const accept = (plan: RunPlan, state: RunState) => state.scored && plan.reconstruction !== "no_session";
  yield* bulk(world, epoch, query, accept, (v, seat) => rlRecord(world, v.plan, v.state, seat));
}

/**
 * Runs of the account, newest first, that pass `accept` and where the reader sees a seat, up to `limit`
 * of them. There is no cursor in the spec's bulk exports, so a bulk request always reads from the newest
 * run. A run that "fails to process" (a `partial` fault, owner routes) yields the error line.
 */
function* bulk<T>(
  world: World,
  epoch: number,
  query: BulkQuery,
  accept: (plan: RunPlan, state: RunState) => boolean,
  record: (view: RunView, seatIndex: number) => T,
): Generator<T | StreamErrorLine> {
  const { reader, campaignId } = query;
  // A campaign the account does not have matches nothing: answer at once instead of scanning every run.
  const campaigns = world.campaigns[reader.account.index] ?? [];
  if (campaignId !== undefined && !campaigns.some((c) => c.campaignId === campaignId)) return;
  if (!reader.seatable) return;
  let runIndex = 0;
  for (const plan of runsNewestFirst(world, reader.account.index)) {
    if (runIndex >= query.limit) return;
    const state = world.state(plan, epoch);
    const seats = reader.seatsIn(plan);
    if (!accept(plan, state) || (campaignId !== undefined && plan.campaign.campaignId !== campaignId) || seats.length === 0) continue;
    if (query.faults.partialAt(runIndex)) yield { error: "partial_stream", run_index: runIndex };
    else for (const seat of seats) yield record({ plan, state }, seat.seatIndex);
    runIndex++;
  }
}
