import { checkDpoRecord, pairDropReason, prunePairs } from "./dpo-rules.js";
import type { PairShape } from "./dpo-rules.js";
import type { FormatName, FormatRules, RecordFacts } from "./format.js";
import { checkRlRecord } from "./rl-rules.js";
import { checkSftRecord } from "./sft-rules.js";

/**
 * A format's rules as the engine calls them, whatever its record type, with the paths (field-path syntax) each
 * reads: the parallel engine's fast parser builds only these into a record's skeleton (the skeleton property
 * tests fail when one is missing).
 */
export interface RecordRules extends FormatRules<never> {
  /** What `facts`, `check` and `prune` read. */
  readonly reads: readonly string[];
  /** What `ownScoreOf` (seat-score.ts) reads, built only for a score threshold: the per-trait map is the costliest part of a record to build. */
  readonly scoreReads?: readonly string[];
  /** The record's own scenario hash `facts` gives, built only for decontamination (RL and DPO records carry none). */
  readonly suiteReads?: readonly string[];
}

/** What a run's skeletons hold: what the rules read, and the scores or the scenario hash when the run asks for them. */
export function skeletonReads(rules: RecordRules, asks: { readonly scores: boolean; readonly suites: boolean }): string[] {
  return [...rules.reads, ...(asks.scores ? (rules.scoreReads ?? []) : []), ...(asks.suites ? (rules.suiteReads ?? []) : [])];
}

/** What `seatRecordFacts` and `scoringFault` read. */
const SEAT_RECORD_READS = ["run_id", "scenario.campaign_id", "seat.seat_index", "seat.role", "seat.agent_key_id", "scorecard_version", "flagged", "scored", "reconstruction"];

/** The facts of a one-seat record (SFT, RL): keyed by run and seat. */
function seatRecordFacts(r: {
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

function pairFacts(r: PairKeyShape): RecordFacts {
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
  sft: {
    facts: seatRecordFacts,
    check: checkSftRecord,
    reads: [...SEAT_RECORD_READS, "scores.outcomes.met_count", "scores.outcomes.total_checks", "scores.outcomes.total_actions"],
    scoreReads: ["scores.per_trait.*.mean", "scores.outcomes.met_count", "scores.outcomes.total_checks"],
    suiteReads: ["manifest.scenario_version_hash"],
  },
  rl: {
    facts: seatRecordFacts,
    check: checkRlRecord,
    // `action.action_type` only: the rule asks whether the action is null, and its content may be long.
    reads: [...SEAT_RECORD_READS, "tuples[].index", "tuples[].kind", "tuples[].action.action_type", "tuples[].reward.checks_passed", "tuples[].reward.checks_failed", "tuples[].reward.terminal_reward"],
  },
  dpo: {
    facts: pairFacts,
    check: checkDpoRecord,
    prune: prunePairs,
    reads: ["run_chosen", "run_rejected", "scenario.campaign_id", "seat_index", "flagged", "scoring_basis.composite_delta", "scoring_basis.objective_delta", "pairs[].alignment", "pairs[].chosen.content", "pairs[].rejected.content"],
  },
};
