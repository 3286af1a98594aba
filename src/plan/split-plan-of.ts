import { ConfigError } from "../core/errors.js";
import { DEFAULT_SPLIT_SEED, groupKeyOf } from "../splits/split-by.js";
import type { ResolvedOptionsOf } from "./option-spec.js";
import type { Options } from "./options.js";
import type { SplitPlan } from "./run-plan.js";

/** The split options as the table names them, each checked already. */
type SplitOptionValues = Partial<Pick<ResolvedOptionsOf<Options, "convert">, "split" | "splitBy" | "splitSeed" | "format">>;

/**
 * The plan's split, or undefined without `--split`. `--split-by` or `--split-seed` alone would do nothing,
 * so they are refused; so is a run split of a forced DPO format (a detected one is refused once it is known).
 */
export function splitPlanOf(o: SplitOptionValues): SplitPlan | undefined {
  if (o.split === undefined) {
    const alone = o.splitBy !== undefined ? "--split-by" : o.splitSeed !== undefined ? "--split-seed" : null;
    if (alone !== null) throw new ConfigError(`${alone} needs --split (e.g. --split train=0.9,validation=0.05,test=0.05)`);
    return undefined;
  }
  const by = o.splitBy ?? "scenario";
  // A forced format's records can be refused now (groupKeyOf throws), before anything is read.
  if (o.format !== undefined) groupKeyOf(by, o.format);
  return { fractions: o.split, by, seed: o.splitSeed ?? DEFAULT_SPLIT_SEED };
}
