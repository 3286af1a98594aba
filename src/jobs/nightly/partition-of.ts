import { ConfigError } from "../../core/errors.js";
import type { Partition, PartitionBy } from "../../pull/index.js";
import { wholeNumber } from "../../plan/parse-text.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A pipeline's `partition` as this job's share: `k/N` as written; `auto` takes k and N from the scheduler
 * that started the job (a Slurm array, an AWS Batch array job); `auto/N` gives N and takes k from those or
 * from a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, which comes without a count. Slurm's task ids are
 * the parts' numbers, so the array is `--array=0-(N-1)`, and a rerun of task k alone (`--array=k`, whose
 * SLURM_ARRAY_TASK_COUNT is 1) says the count: `auto/N`.
 */
export function partitionOf(text: string, by: PartitionBy, env: Env): Partition {
  const m = /^(\d+|auto)(?:\/(\d+))?$/.exec(text);
  const given = m?.[2] === undefined ? undefined : Number(m[2]);
  if (m === null || (m[1] !== "auto" && given === undefined)) throw new ConfigError(`Expected a partition "k/N" with 0 <= k < N, "auto" or "auto/N", got ${JSON.stringify(text)}`);
  const { index, count } = m[1] === "auto" ? fromScheduler(env, given) : { index: Number(m[1]), count: given as number };
  if (!(count >= 1) || !(index >= 0 && index < count)) throw new ConfigError(`Expected a partition "k/N" with 0 <= k < N, got ${JSON.stringify(`${index}/${count}`)}${m[1] === "auto" ? ` (from ${JSON.stringify(text)} and the scheduler's environment)` : ""}`);
  return { index, count, by };
}

/** The scheduler's task index and count; a variable the scheduler should have set and did not is named. */
function fromScheduler(env: Env, given: number | undefined): { index: number; count: number } {
  const schedulers = [
    { index: "SLURM_ARRAY_TASK_ID", count: "SLURM_ARRAY_TASK_COUNT" },
    { index: "AWS_BATCH_JOB_ARRAY_INDEX", count: "AWS_BATCH_JOB_ARRAY_SIZE" },
    { index: "JOB_COMPLETION_INDEX", count: undefined },
  ];
  for (const names of schedulers) {
    if (env[names.index] === undefined) continue;
    const index = wholeNumber(names.index, 0)(env[names.index] ?? "");
    if (given !== undefined) return { index, count: given };
    if (names.count === undefined) throw new ConfigError(`${names.index} gives no count of parts: write the partition as "auto/N"`);
    if (env[names.count] === undefined) throw new ConfigError(`Partition "auto" found ${names.index} but not ${names.count}; set it, or write "auto/N"`);
    return { index, count: wholeNumber(names.count, 0)(env[names.count] ?? "") };
  }
  throw new ConfigError(`Partition "auto" found none of SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX, JOB_COMPLETION_INDEX in the environment (is the job an array job?)`);
}
