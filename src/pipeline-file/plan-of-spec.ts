import { OPTIONS } from "../plan/options.js";
import { nightlyPlan } from "../plan/resolve-plan.js";
import type { RunPlan, SourcePlan } from "../plan/run-plan.js";
import { fromYamlKeys } from "../plan/yaml-keys.js";
import type { PipelineSpec } from "./pipeline-spec.js";

/** A checked pipeline file as a RunPlan: its run options read back by the option table's keys. */
export function planOfSpec(spec: PipelineSpec): RunPlan {
  const source = spec.source;
  const values = fromYamlKeys(OPTIONS, spec, source.kind);
  const sourcePlan: SourcePlan =
    source.kind === "files"
      ? { kind: "files", inputs: source.inputs, stdin: undefined, scorecards: source.scorecards }
      : {
          kind: "http",
          baseUrl: source.base_url,
          auth: source.auth,
          concurrency: source.concurrency,
          partition: source.partition,
          partitionBy: source.partition_by,
          dpo: { strategy: source.dpo?.strategy ?? OPTIONS.dpoStrategy.default, maxPairsPerScenario: source.dpo?.max_pairs_per_scenario ?? OPTIONS.maxPairsPerScenario.default },
        };
  return nightlyPlan(values, sourcePlan);
}
