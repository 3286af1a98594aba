import type { NightlyOptions } from "../jobs/nightly/run-nightly.js";

/** A night's `--workers`, as given: how it runs, not what it makes, so never the pipeline's (its digest would change). */
export function executorOf(flags: { readonly workers: unknown }): Pick<NightlyOptions, "workers"> {
  return flags.workers === undefined ? {} : { workers: flags.workers as number };
}
