import { notLaunched } from "./http-errors.js";
import type { ReadRun } from "./run-access.js";
import type { SeatPlan } from "./run-plan.js";
import { CHOICE_OPTIONS, combatWindow, seatPlay, type AwaitingKind } from "./seat-play.js";
import { hashOf, hex8, SeededRandom } from "./seeded-random.js";

/** Hint sent with degraded answers (spec 7, rule 5): a platform setting, here fixed. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The run status object (spec 2.4) for a seat. Runs not yet launched answer 409 `Run not launched`;
 * an epoch in which the orchestrator is "unreachable" answers 200 degraded, never an error.
 */
export function statusBody(seed: number, view: ReadRun): Record<string, unknown> {
  const { plan, state, seats: [seat] } = view;
  if (seat === undefined) throw new RangeError(`No seat of run ${plan.runId} to answer the status of`);
  if (state.status === "pending" || state.status === "launching") throw notLaunched();
  const you = {
    seat_index: seat.seatIndex,
    role: seat.role,
    character_id: characterId(seed, plan.n, seat.seatIndex),
    character_name: title(seat.role),
  };
  const base = { status: state.status, turn_count: state.turnCount, scored: state.scored };
  if (state.degraded) {
    return { ...base, session_state: "unknown", awaiting: null, combat: null, degraded: true, retry_after_seconds: RETRY_AFTER_SECONDS, you };
  }
  if (state.status !== "running") return { ...base, session_state: "completed", awaiting: null, combat: null, you };

  const step = seatPlay(seed, plan, seat.seatIndex).steps[state.turnCount];
  const window = combatWindow(seed, plan);
  const turn = state.turnCount + 1;
  const inCombat = step?.inCombat === true;
  const round = window === null ? 1 : turn - window[0] + 1;
  const paused = new SeededRandom(seed, "paused", plan.n, state.turnCount).chance(0.1);
  return {
    ...base,
    session_state: paused ? "paused" : "active",
    awaiting: step?.awaiting == null ? null : awaiting(step.awaiting, you, plan.seats, round, inCombat),
    combat: inCombat ? { round, active_combatant: you.character_name, combatants: plan.seats.map((s) => title(s.role)) } : null,
    you,
  };
}

function awaiting(kind: AwaitingKind, you: { character_id: string; character_name: string }, seats: readonly SeatPlan[], round: number, inCombat: boolean) {
  switch (kind) {
    case "your_turn":
      return { kind, character_id: you.character_id, combatant_name: you.character_name, round };
    case "choice_point":
      return {
        kind,
        character: you.character_name,
        character_id: you.character_id,
        decision: "How do you respond to the offer?",
        options: [...CHOICE_OPTIONS],
      };
    case "vote":
      return { kind, question: "Accept the compromise as proposed?", initiator_speaker: "DM", waiting_for: seats.map((s) => title(s.role)) };
    case "roll_request":
      return { kind, roll_type: "persuasion", formula: "1d20+3", dc: 14, character_id: you.character_id, character_name: you.character_name, context: inCombat ? "combat" : "out_of_combat" };
  }
}

function characterId(seed: number, n: number, seat: number): string {
  return `chr_${hex8(hashOf(seed, "character", n, seat))}`;
}

function title(role: string): string {
  return role.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}
