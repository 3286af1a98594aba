import type { FormatName, RecordFacts, SemanticFault } from "./format.js";

/**
 * Each format's `facts` and `check`, apart from its zod schema: worker threads of the parallel engine run
 * them on every record without loading zod (whose import alone costs ~0.1 s per thread). What they read is
 * listed on the fast path's side (`fast/record-reads.ts`): change both together.
 */
export interface RecordRules {
  facts(record: never): RecordFacts;
  check(record: never): SemanticFault | null;
}

/** The facts of a one-seat record (SFT, RL): keyed by run and seat. */
export function seatRecordFacts(r: {
  run_id: string;
  scenario: { campaign_id: string };
  seat: { seat_index: number; role: string; agent_key_id: string | null };
  scorecard_version: number;
  flagged: boolean;
  scored: boolean;
  reconstruction: string;
}): RecordFacts {
  return {
    key: JSON.stringify([r.run_id, r.seat.seat_index]),
    scorecardVersion: r.scorecard_version,
    flagged: r.flagged,
    scored: r.scored,
    reconstruction: r.reconstruction,
    runIds: [r.run_id],
    seat: { agentKeyId: r.seat.agent_key_id, role: r.seat.role },
    campaignId: r.scenario.campaign_id,
  };
}

/** The part of an RL tuple the trajectory rules read. */
export interface TupleShape {
  readonly index: number;
  readonly kind: string;
  readonly reward: { readonly terminal_reward: number | null };
}

/** Indexes run 0..n-1 in order, and only the last action step may carry a terminal reward. */
export function checkTrajectory(tuples: readonly TupleShape[]): SemanticFault | null {
  let lastAction = -1;
  for (const [i, t] of tuples.entries()) {
    if (t.index !== i) {
      return { reason: "invalid_trajectory", detail: `tuples[${i}].index is ${t.index}, expected ${i}` };
    }
    if (t.kind === "action") lastAction = i;
  }
  for (const [i, t] of tuples.entries()) {
    if (t.reward.terminal_reward !== null && i !== lastAction) {
      return {
        reason: "invalid_trajectory",
        detail: `tuples[${i}].reward.terminal_reward is ${t.reward.terminal_reward} but only the last action step (${lastAction < 0 ? "none" : `tuples[${lastAction}]`}) may carry one`,
      };
    }
  }
  return null;
}

interface PairShape {
  readonly scenario: { readonly campaign_id: string };
  readonly run_chosen: string;
  readonly run_rejected: string;
  readonly seat_index: number;
  readonly flagged: boolean;
}

export function pairFacts(r: PairShape): RecordFacts {
  return {
    key: JSON.stringify([r.run_chosen, r.run_rejected, r.seat_index]),
    scorecardVersion: null,
    flagged: r.flagged,
    scored: null,
    reconstruction: null,
    runIds: [r.run_chosen, r.run_rejected],
    seat: null,
    campaignId: r.scenario.campaign_id,
  };
}

export function checkPair(r: PairShape): SemanticFault | null {
  return r.run_chosen === r.run_rejected ? { reason: "invalid_pair", detail: `run_chosen and run_rejected are the same run ${JSON.stringify(r.run_chosen)}` } : null;
}

export const RECORD_RULES: Readonly<Record<FormatName, RecordRules>> = {
  sft: { facts: seatRecordFacts, check: () => null },
  rl: { facts: seatRecordFacts, check: (r: { tuples: readonly TupleShape[] }) => checkTrajectory(r.tuples) },
  dpo: { facts: pairFacts, check: checkPair },
};
