import type { RunPlan } from "./run-plan.js";
import { playerMessage, seatPlay, type SeatPlay } from "./seat-play.js";
import { SeededRandom } from "./seeded-random.js";
import { untrusted } from "./untrusted-text.js";
import type { WorldBasis } from "./world-basis.js";
import { iso } from "./world-clock.js";

/** Share of DM messages that carry an injection string: generated text is untrusted (spec 4.9). */
const INJECTED_NARRATION = 0.08;
/** Seconds between DM turns in message timestamps. */
const TURN_SECONDS = 45;

/** A transcript message, in the scene's `recent` form (spec 2.6). A type, so it is assignable to JSON. */
export type TranscriptMessage = {
  role: "dm" | "player";
  speaker: string;
  content: string;
  timestamp: string;
  message_id: string;
};

/** The DM's narration at `turn` (1-based) of a run: generated text, sometimes with an injection. */
export function narration(seed: number, plan: RunPlan, turn: number): string {
  const random = new SeededRandom(seed, "narration", plan.n, turn);
  return untrusted(random, random.pick(plan.campaign.theme.narration), INJECTED_NARRATION);
}

/** The last DM messages of a finished run (RL and DPO `outcome.dm_messages`). */
export function closingNarration(seed: number, plan: RunPlan): string[] {
  const first = Math.max(1, plan.turns - 2);
  return Array.from({ length: plan.turns - first + 1 }, (_, i) => narration(seed, plan, first + i));
}

/**
 * The full turn-by-turn transcript of a run up to `turns` DM turns: each turn the DM narrates, then
 * every seat that acted posts one player message. So a seat's player messages number its
 * `total_actions`, and DM messages the run's turns: the participation gate (spec 3.4) can be checked
 * from here. A run without a session has none.
 */
export function transcript(world: WorldBasis, plan: RunPlan, turns: number): TranscriptMessage[] {
  if (plan.reconstruction === "no_session") return [];
  const plays: SeatPlay[] = plan.seats.map((s) => seatPlay(world.seed, plan, s.seatIndex));
  const start = world.clock.at(plan.timeline.launch, 5);
  const messages: TranscriptMessage[] = [];
  const push = (role: "dm" | "player", speaker: string, content: string, turn: number) => {
    messages.push({
      role,
      speaker,
      content,
      timestamp: iso(start + (turn * TURN_SECONDS + messages.length) * 1000),
      message_id: world.ids.message.encode(plan.n * 4096 + messages.length),
    });
  };
  for (let turn = 1; turn <= turns; turn++) {
    push("dm", "DM", narration(world.seed, plan, turn), turn);
    for (const [i, play] of plays.entries()) {
      const step = play.steps[turn - 1];
      const content = step === undefined ? null : playerMessage(step);
      if (content !== null) push("player", plan.seats[i]?.role ?? "player", content, turn);
    }
  }
  return messages;
}
