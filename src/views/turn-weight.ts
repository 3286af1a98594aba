import type { RlRecord, RlTuple } from "../formats/rl.js";
import { returnToGo, stepReward } from "./return-to-go.js";

/**
 * Which assistant turns of an episode an OpenAI line trains on (`weight` 1): those whose step's
 * `scalar_reward > 0`, whose return to go (discounted by `gamma`) `> 0` (the KTO label rules), or all.
 */
export const TURN_WEIGHTS = ["scalar_reward", "return_to_go", "all"] as const;
export type TurnWeight = (typeof TURN_WEIGHTS)[number];

/**
 * The weight rule over one record: a turn's weight from the tuples its action came from. A turn merged from
 * several steps weighs 1 only when every one of them does: a step the rule leaves out is never trained on.
 */
export function turnWeights(record: RlRecord, rule: TurnWeight, gamma: number): (tuples: readonly RlTuple[]) => 0 | 1 {
  if (rule === "all") return () => 1;
  const returns = rule === "return_to_go" ? returnToGo(record.tuples.map((t) => stepReward(t.reward)), gamma) : null;
  const position = returns === null ? null : new Map(record.tuples.map((t, i) => [t, i]));
  const keep = (t: RlTuple): boolean => (returns === null ? t.reward.scalar_reward : (returns[position?.get(t) as number] as number)) > 0;
  return (tuples) => (tuples.every(keep) ? 1 : 0);
}
