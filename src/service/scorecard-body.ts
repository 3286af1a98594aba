import type { SeatScore, TraitScore } from "./seat-score.js";
import { round4 } from "./seat-play.js";
import { iso } from "./world-clock.js";
import type { GateStamp } from "./emulator-options.js";

/** Who reads a response: owner routes see every seat and owner-only fields. */
export type Audience = "agent" | "owner";

/** The emulator's additions to a scorecard, served only with `extraFields` (docs/emulator.md). */
export interface ScorecardExtras {
  seat_index: number;
  role: string;
  version: number;
  created_at: string;
}

/** How a gated seat's card is stamped (`EmulatorOptions.gateStamp`), and the floor a `detail` stamp names. */
export interface StampStyle {
  readonly stamp: GateStamp;
  readonly minPlayerMessages: number;
}

/** One seat's scorecard (spec 2.7), with the extras when asked for. */
export interface ScorecardBody extends Partial<ScorecardExtras> {
  run_id: string;
  /** Null for an `aic` seat (owner routes only). */
  agent_key_id: string | null;
  outcomes: {
    met_count: number;
    total_checks: number;
    total_actions: number;
    win_conditions: { id: string; description: string; met: boolean }[];
    partial_credit: { per_condition: Record<string, number>; total: number; max_possible: number };
  };
  traits: { per_trait: Record<string, TraitScore> };
  /** Owner responses only, and only for scenarios that declare safety traits. */
  safety?: Record<string, TraitScore>;
  /** The stamp, present only when the seat hit the participation gate (`text`: on every agent seat). */
  participation_gated?: true | { player_messages: number; min_player_messages: number } | "true" | "false";
}

/** A seat's scorecard: the fields spec 2.7 shows, plus the emulator's extras when `extras` is set. */
export function scorecardBody(score: SeatScore, audience: Audience, extras: boolean, { stamp, minPlayerMessages }: StampStyle): ScorecardBody {
  const { plan, seat, play } = score;
  const conditions = plan.campaign.winConditions;
  const perCondition = Object.fromEntries(conditions.map((c) => [c.id, play.partialCredit[c.id] ?? 0]));
  const body: ScorecardBody = {
    run_id: plan.runId,
    agent_key_id: seat.agentKeyId,
    ...(extras ? { seat_index: seat.seatIndex, role: seat.role, version: score.version, created_at: iso(score.createdAt) } : {}),
    outcomes: {
      met_count: play.met.size,
      total_checks: play.totalChecks,
      total_actions: play.actionCount,
      win_conditions: conditions.map((c) => ({ id: c.id, description: c.description, met: play.met.has(c.id) })),
      partial_credit: {
        per_condition: perCondition,
        total: round4(Object.values(perCondition).reduce((s, x) => s + x, 0)),
        max_possible: conditions.length,
      },
    },
    traits: { per_trait: { ...score.perTrait } },
  };
  if (audience === "owner" && Object.keys(score.safety).length > 0) body.safety = { ...score.safety };
  if (stamp === "true" && score.gated) body.participation_gated = true;
  else if (stamp === "detail" && score.gated) body.participation_gated = { player_messages: play.actionCount, min_player_messages: minPlayerMessages };
  else if (stamp === "text" && seat.agentKeyId !== null) body.participation_gated = score.gated ? "true" : "false";
  return body;
}
