import type { RlRecord, RlTuple } from "../formats/rl.js";
import { returnToGo, stepReward } from "./return-to-go.js";
import type { KtoLabel } from "./view-env.js";

/**
 * The reward rule over one record that labels a step desirable (`--kto-label`): its `scalar_reward > 0`, or
 * with `return_to_go` its return to go (discounted by `gamma`) `> 0`. `trl-kto`'s labels, `trl-stepwise`'s
 * and the turn weights of `openai-sft --episodes` are this rule.
 */
export function rewardLabel(record: RlRecord, rule: KtoLabel, gamma: number): (tuple: RlTuple) => boolean {
  if (rule === "scalar_reward") return (t) => t.reward.scalar_reward > 0;
  const returns = returnToGo(record.tuples.map((t) => stepReward(t.reward)), gamma);
  const position = new Map(record.tuples.map((t, i) => [t, i]));
  return (t) => (returns[position.get(t) as number] as number) > 0;
}
