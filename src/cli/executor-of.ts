import type { NightlyOptions } from "../jobs/nightly/run-nightly.js";

/** A night's `--workers` and `--engine`, as given: how it runs, not what it makes, so never the pipeline's (its digest would change). */
export function executorOf(flags: { readonly workers: unknown; readonly engine: unknown }): Pick<NightlyOptions, "workers" | "engine"> {
  return {
    ...(flags.workers === undefined ? {} : { workers: flags.workers as number }),
    ...(flags.engine === undefined ? {} : { engine: flags.engine as NonNullable<NightlyOptions["engine"]> }),
  };
}
