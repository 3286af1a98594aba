import type { SftRecord } from "../formats/sft.js";
import { coachingFor } from "./coaching.js";
import type { RunPlan } from "./run-plan.js";
import type { RunState } from "./run-state.js";
import type { Audience } from "./scorecard-body.js";
import type { SeatStep } from "./seat-play.js";
import { seatScore } from "./seat-score.js";
import { seatPlay } from "./seat-play.js";
import { transcript } from "./transcript.js";
import type { WorldBasis } from "./world-basis.js";

export interface SftOptions {
  readonly audience: Audience;
  /** Owner single-run route with `include_transcript=true`; agent routes never include one. */
  readonly includeTranscript?: boolean;
}

/** The SFT record (format 1.1, spec 4.8) of one seat of a completed run. */
export function sftRecord(world: WorldBasis, plan: RunPlan, state: RunState, seatIndex: number, options: SftOptions): SftRecord {
  const seat = plan.seats[seatIndex];
  if (seat === undefined) throw new RangeError(`Run ${plan.runId} has no seat ${seatIndex}`);
  const score = state.scored ? seatScore(world, plan, seatIndex, state.version) : null;
  const play = score?.play ?? seatPlay(world.seed, plan, seatIndex);
  const coaching = score === null ? null : coachingFor(world.seed, score);
  const conditions = plan.campaign.winConditions;
  const record: SftRecord = {
    format_version: "1.1",
    run_id: plan.runId,
    scenario: { campaign_id: plan.campaign.campaignId, seed: plan.seed },
    seat: { seat_index: seat.seatIndex, role: seat.role, agent_key_id: seat.agentKeyId },
    scored: state.scored,
    flagged: state.flagged,
    scorecard_version: state.version,
    reconstruction: plan.reconstruction,
    scores:
      score === null
        ? null
        : {
            per_trait: { ...score.perTrait },
            win_conditions: conditions.map((c) => ({ id: c.id, description: c.description, met: play.met.has(c.id) })),
            outcomes: { met_count: play.met.size, total_checks: play.totalChecks, total_actions: play.actionCount },
          },
    coaching: coaching === null ? null : { weak_traits: coaching.weak_traits, guidance: coaching.guidance },
    trace_steps: plan.reconstruction === "per_seat_trace" ? play.steps.map(traceStep) : [],
  };
  if (options.audience === "owner") {
    record.manifest = { judge: { ...plan.campaign.judge }, scenario_version_hash: plan.campaign.scenarioVersionHash };
    if (options.includeTranscript === true) record.transcript = transcript(world, plan, state.turnCount);
  }
  return record;
}

/** The spec does not show a trace step's fields: the emulator's choice, documented in docs/emulator.md. */
function traceStep(step: SeatStep) {
  return {
    index: step.index,
    turn: step.index + 1,
    kind: step.kind,
    observation: { awaiting: step.awaiting, in_combat: step.inCombat },
    action: step.action === null ? null : { action_type: step.action.action_type, content: step.action.content },
    checks_passed: step.checksPassed,
    checks_failed: step.checksFailed,
    conditions_met: [...step.conditionsMet],
  };
}
