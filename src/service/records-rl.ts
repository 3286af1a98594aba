import type { RlRecord, RlTuple } from "../formats/rl.js";
import type { RunPlan } from "./run-plan.js";
import type { RunState } from "./run-state.js";
import { playerMessage, round4 } from "./seat-play.js";
import { seatScore, type SeatScore } from "./seat-score.js";
import { closingNarration, narration } from "./transcript.js";
import type { WorldBasis } from "./world-basis.js";

/**
 * The RL trajectory record (format 1.0, spec 4.9) of one seat of a scored run with a session.
 * A run whose seat could not be attributed has no per-seat trace: its record has no tuples.
 */
export function rlRecord(world: WorldBasis, plan: RunPlan, state: RunState, seatIndex: number): RlRecord {
  const score = seatScore(world, plan, seatIndex, state.version);
  const { seat } = score;
  return {
    rl_format_version: "1.0",
    run_id: plan.runId,
    scenario: {
      campaign_id: plan.campaign.campaignId,
      seed: plan.seed,
      win_conditions: plan.campaign.winConditions.map((c) => ({ id: c.id, description: c.description })),
    },
    seat: { seat_index: seat.seatIndex, role: seat.role, agent_key_id: seat.agentKeyId },
    scored: state.scored,
    flagged: state.flagged,
    scorecard_version: state.version,
    reconstruction: plan.reconstruction,
    tuples: plan.reconstruction === "per_seat_trace" ? tuples(world.seed, score) : [],
    outcome: { dm_messages: closingNarration(world.seed, plan) },
  };
}

/** The reward for the whole run, on the last action step only: objectives and judged quality, 0 to 1. */
function terminalReward(score: SeatScore): number {
  const conditions = score.plan.campaign.winConditions;
  const credit = conditions.reduce((sum, c) => sum + (score.play.partialCredit[c.id] ?? 0), 0);
  return round4(0.5 * (credit / Math.max(1, conditions.length)) + 0.5 * ((score.composite - 1) / 4));
}

function tuples(seed: number, score: SeatScore): RlTuple[] {
  const { plan, play } = score;
  const lastAction = play.steps.reduce((last, s) => (s.kind === "action" ? s.index : last), -1);
  return play.steps.map((step): RlTuple => {
    const turn = step.index + 1;
    const window: { role: string; content: string }[] = [];
    if (turn > 1) window.push({ role: "dm", content: narration(seed, plan, turn - 1) });
    // The transcript around the step: the last DM turn, the seat's own last message, the DM turn now.
    const before = play.steps[step.index - 1];
    const previous = before === undefined ? null : playerMessage(before);
    if (previous !== null) window.push({ role: "player", content: previous });
    window.push({ role: "dm", content: narration(seed, plan, turn) });
    return {
      index: step.index,
      kind: step.kind,
      state: {
        // The spec does not show the observation's fields: the emulator's choice.
        observation: { turn, awaiting: step.awaiting === null ? null : { kind: step.awaiting }, in_combat: step.inCombat },
        transcript_window: window,
      },
      action: step.action === null ? null : { action_type: step.action.action_type, content: step.action.content },
      reward: {
        checks_passed: step.checksPassed,
        checks_failed: step.checksFailed,
        conditions_met: [...step.conditionsMet],
        scalar_reward: round4(0.1 * step.checksPassed - 0.05 * step.checksFailed + 0.5 * step.conditionsMet.length),
        progress_delta: step.progressDelta,
        terminal_reward: step.index === lastAction ? terminalReward(score) : null,
      },
    };
  });
}
