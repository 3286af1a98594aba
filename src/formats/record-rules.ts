import type { PairDropReason } from "../core/reasons.js";
import { checkDpoRecord, pairDropReason, prunePairs } from "./dpo-rules.js";
import type { PairShape } from "./dpo-rules.js";
import type { FormatName, RecordFacts, SemanticFault } from "./format.js";
import { checkRlRecord } from "./rl-rules.js";
import { checkSftRecord } from "./sft-rules.js";

/**
 * Each format's `facts` and `check`, apart from its zod schema: worker threads of the parallel engine run
 * them on every record without loading zod (whose import alone costs ~0.1 s per thread). What they read is
 * listed on the fast path's side (`fast/record-reads.ts`): change both together.
 */
export interface FormatRules<R> {
  facts(record: R): RecordFacts;
  check(record: R): SemanticFault | null;
  /**
   * Removes the parts of a record that passed `check` which teach nothing (DPO pairs), in place; returns how
   * many went, by reason, or null when none did. Formats without such parts have none.
   */
  prune?(record: R): Partial<Record<PairDropReason, number>> | null;
}

/** A format's rules as the engine calls them, whatever its record type. */
export type RecordRules = FormatRules<never>;

/** The facts of a one-seat record (SFT, RL): keyed by run and seat. */
export function seatRecordFacts(r: {
  run_id: string;
  scenario: { campaign_id: string };
  seat: { seat_index: number; role: string; agent_key_id: string | null };
  scorecard_version: number;
  flagged: boolean;
  scored: boolean;
  reconstruction: string;
  manifest?: { scenario_version_hash: string } | undefined;
}): RecordFacts {
  const hash = r.manifest?.scenario_version_hash;
  return {
    key: JSON.stringify([r.run_id, r.seat.seat_index]),
    scorecardVersion: r.scorecard_version,
    flagged: r.flagged,
    scored: r.scored,
    reconstruction: r.reconstruction,
    runIds: [r.run_id],
    usablePairs: null,
    seat: { agentKeyId: r.seat.agent_key_id, role: r.seat.role },
    campaignId: r.scenario.campaign_id,
    ...(typeof hash === "string" ? { scenarioVersionHash: hash } : {}),
  };
}

interface PairKeyShape {
  readonly scenario: { readonly campaign_id: string };
  readonly run_chosen: string;
  readonly run_rejected: string;
  readonly seat_index: number;
  readonly flagged: boolean;
  readonly pairs: readonly PairShape[];
}

export function pairFacts(r: PairKeyShape): RecordFacts {
  return {
    key: JSON.stringify([r.run_chosen, r.run_rejected, r.seat_index]),
    scorecardVersion: null,
    flagged: r.flagged,
    scored: null,
    reconstruction: null,
    runIds: [r.run_chosen, r.run_rejected],
    usablePairs: r.pairs.reduce((n, pair) => (pairDropReason(pair) === null ? n + 1 : n), 0),
    seat: null,
    campaignId: r.scenario.campaign_id,
  };
}

export const RECORD_RULES: Readonly<Record<FormatName, RecordRules>> = {
  sft: { facts: seatRecordFacts, check: checkSftRecord },
  rl: { facts: seatRecordFacts, check: checkRlRecord },
  dpo: { facts: pairFacts, check: checkDpoRecord, prune: prunePairs },
};
