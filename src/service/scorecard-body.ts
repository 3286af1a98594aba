import type { SeatScore, TraitScore } from "./seat-score.js";
import { round4 } from "./seat-play.js";
import { iso } from "./world-clock.js";

/** Who reads a response: owner routes see every seat and owner-only fields. */
export type Audience = "agent" | "owner";

/** One seat's scorecard (spec 2.7). */
export interface ScorecardBody {
  run_id: string;
  /** Null for an `aic` seat (owner routes only). */
  agent_key_id: string | null;
  seat_index: number;
  role: string;
  version: number;
  created_at: string;
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
  /** The stamp, present only when the seat hit the participation gate. */
  participation_gated?: true;
}

export function scorecardBody(score: SeatScore, audience: Audience): ScorecardBody {
  const { plan, seat, play } = score;
  const conditions = plan.campaign.winConditions;
  const perCondition = Object.fromEntries(conditions.map((c) => [c.id, play.partialCredit[c.id] ?? 0]));
  const body: ScorecardBody = {
    run_id: plan.runId,
    agent_key_id: seat.agentKeyId,
    seat_index: seat.seatIndex,
    role: seat.role,
    version: score.version,
    created_at: iso(score.createdAt),
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
  if (score.gated) body.participation_gated = true;
  return body;
}
