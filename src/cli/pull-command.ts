import { Command } from "commander";
import { ConfigError } from "../core/errors.js";
import { toYamlKeys } from "../plan/yaml-keys.js";
import { OPTIONS } from "../plan/options.js";
import { withViewDefaults } from "../plan/view-plan-of.js";
import { launchNight, reportNight } from "./nightly-output.js";
import { addOptionFlags, optionsFromFlags } from "./option-flags.js";
import { runAction } from "./run-action.js";
import { addRetiredEngineFlag, retiredEngine } from "./retired-engine-flag.js";

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
      const [{ pipelineSpec }, { describeIssues }] = await Promise.all([import("../pipeline-file/pipeline-spec.js"), import("../stages/describe-issues.js")]);
      // The flags as the pipeline file a `run` would read: one validation, one code path.
      const doc = toYamlKeys(OPTIONS, "pull", given) as { source?: Record<string, unknown> };
      const source: Record<string, unknown> = { kind: "http", ...doc.source };
      // DPO pairing options mean something for DPO pulls only.
      if (given.format !== "dpo") delete source.dpo;
      else source.dpo ??= {};
      const parsed = pipelineSpec.safeParse({ ...doc, version: 1, name: `pull-${String(given.format)}`, source });
      if (!parsed.success) throw new ConfigError(`Invalid pull options: ${describeIssues(parsed.error.issues)}`);
      return reportNight(await launchNight(parsed.data, { dryRun, force, workers }), json === true || !process.stdout.isTTY);
    }),
  );
}
