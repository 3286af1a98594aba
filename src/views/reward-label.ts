import type { RlRecord, RlTuple } from "../formats/rl.js";
import { returnToGo, stepReward } from "./return-to-go.js";

/** What decides a KTO row's `label`: the step's `scalar_reward > 0` (default), or its return to go `> 0`. */
export const KTO_LABELS = ["scalar_reward", "return_to_go"] as const;
export type KtoLabel = (typeof KTO_LABELS)[number];

/**
 * `rule` (`--kto-label`) over one record: whether a step is desirable, its return to go discounted by `gamma`.
 * `trl-kto`'s labels, `trl-stepwise`'s and the turn weights of `openai-sft --episodes` are this rule.
 */
export function rewardLabel(record: RlRecord, rule: KtoLabel, gamma: number): (tuple: RlTuple) => boolean {
  if (rule === "scalar_reward") return (t) => t.reward.scalar_reward > 0;
  const returns = returnToGo(record.tuples.map((t) => stepReward(t.reward)), gamma);
  const position = new Map(record.tuples.map((t, i) => [t, i]));
  return (t) => (returns[position.get(t) as number] as number) > 0;
}
