import { Command } from "commander";
import { ConfigError } from "../core/errors.js";
import { toYamlKeys } from "../plan/yaml-keys.js";
import { OPTIONS } from "../plan/options.js";
import { withViewDefaults } from "../plan/view-plan-of.js";
import { nightlyEnvironment, reportNight } from "./nightly-output.js";
import { addOptionFlags, optionsFromFlags } from "./option-flags.js";
import { leaveNothingCreated } from "./leave-nothing-created.js";
import { runAction } from "./run-action.js";
import { executorOf } from "./executor-of.js";
import { addRetiredEngineFlag, retiredEngine } from "./retired-engine-flag.js";
import { applyHeapGrowingPercent } from "./heap-growing-percent.js";

/** `evalshard pull`: the nightly job from flags instead of a pipeline file; the same code path as `run`. */
export function pullCommand(): Command {
  const command = new Command("pull").description("pull one format from the service into an incremental dataset (credentials from EVAL_API_KEY or EVAL_OWNER_TOKEN)");
  addRetiredEngineFlag(addOptionFlags(command, "pull"));
  return command.action(
    runAction(async (...args: unknown[]) => {
      const self = args.at(-1) as Command;
      retiredEngine(self);
      const { json, dryRun, force, workers, ...flags } = optionsFromFlags(self, "pull");
      const given = withViewDefaults(flags); // issue 18: an OpenAI view is plain JSON Lines unless --to says otherwise
      const [{ runNightly, outputDirOf }, { pipelineSpec }, { describeIssues }] = await Promise.all([import("../jobs/nightly/run-nightly.js"), import("../pipeline-file/pipeline-spec.js"), import("../stages/describe-issues.js")]);
      // The flags as the pipeline file a `run` would read: one validation, one code path.
      const doc = toYamlKeys(OPTIONS, "pull", given) as { source?: Record<string, unknown> };
      const source: Record<string, unknown> = { kind: "http", ...doc.source };
      // DPO pairing options mean something for DPO pulls only.
      if (given.format !== "dpo") delete source.dpo;
      else source.dpo ??= {};
      const parsed = pipelineSpec.safeParse({ ...doc, version: 1, name: `pull-${String(given.format)}`, source });
      if (!parsed.success) throw new ConfigError(`Invalid pull options: ${describeIssues(parsed.error.issues)}`);
      const dry = dryRun === true;
      applyHeapGrowingPercent(); // before the night allocates: the CLI's process is the job's
      const environment = nightlyEnvironment(parsed.data.name);
      const night = await leaveNothingCreated(outputDirOf(parsed.data), () => runNightly(parsed.data, environment, { dryRun: dry, force: force === true, ...executorOf({ workers }) }), { always: dry }).finally(() => environment.end());
      return reportNight(night, json === true || !process.stdout.isTTY);
    }),
  );
}
