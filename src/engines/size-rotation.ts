import type { RunPlan } from "../plan/run-plan.js";
import type { ShardLimits } from "../output/shard-rotation.js";

/** The plan's shard limits: a conversion's shards rotate by size (a nightly's go into buckets instead). */
export function sizeRotation(plan: RunPlan): ShardLimits {
  const { rotation } = plan.shards;
  if (rotation.kind !== "size") throw new Error("Internal error: this run rotates shards by size");
  return { maxRows: rotation.maxRows, maxBytes: rotation.maxBytes };
}
