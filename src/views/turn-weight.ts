import type { RlRecord, RlTuple } from "../formats/rl.js";
import { rewardLabel } from "./reward-label.js";

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
  const keep = rewardLabel(record, rule, gamma);
  return (tuples) => (tuples.every(keep) ? 1 : 0);
}
