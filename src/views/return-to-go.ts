import type { RlTuple } from "../formats/rl.js";

/** A step's reward for the return: its `scalar_reward` plus its `terminal_reward` (set on the last action step only). */
export function stepReward(reward: RlTuple["reward"]): number {
  return reward.scalar_reward + (reward.terminal_reward ?? 0);
}

/**
 * The return to go of each step, in the order given: G_t = r_t + gamma * G_{t+1}, so the default
 * gamma = 1 gives the undiscounted sum of the rewards of steps t and later.
 */
export function returnToGo(rewards: readonly number[], gamma = 1): number[] {
  const out = new Array<number>(rewards.length);
  let g = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    g = (rewards[t] as number) + gamma * g;
    // -0 would print as 0 in JSONL but stay -0.0 in Parquet; one zero keeps the two shards alike.
    out[t] = g === 0 ? 0 : g;
  }
  return out;
}
