import { Command } from "commander";
import { launchNight, reportNight } from "./nightly-output.js";
import { addOptionFlags, optionsFromFlags } from "./option-flags.js";
import { runAction } from "./run-action.js";
import { reportCommit } from "./commit-command.js";
import { addRetiredEngineFlag, retiredEngine } from "./retired-engine-flag.js";
import { pipelineFileOf } from "./shipped-pipeline.js";
import { OPTIONS } from "../plan/options.js";
import type { OptionSpec, OptionTable } from "../plan/option-spec.js";
import { toYamlKeys } from "../plan/yaml-keys.js";

/**
 * The options a night's operator may set for one run over the pipeline file's (issue 40): the guards,
 * e.g. `--publish-anyway` once after a real shrink, and `--force` for a first night into a folder of theirs;
 * and how the night runs and prints, as `pull`'s.
 */
const RUN_FLAGS: OptionTable = Object.fromEntries(
  Object.entries<OptionSpec<any>>({ json: OPTIONS.json, dryRun: OPTIONS.dryRun, minRecords: OPTIONS.minRecords, maxShrink: OPTIONS.maxShrink, publishAnyway: OPTIONS.publishAnyway, force: OPTIONS.force, workers: OPTIONS.workers }).map(([name, spec]) => {
    // Help shows no table default here: what is not given stays the pipeline file's value.
    const { default: _default, ...overFile } = spec;
    return [name, { ...overFile, help: spec.yaml === undefined ? spec.help : `${spec.help}; over the pipeline file's ${spec.yaml.key}` }];
  }),
);

export function runCommand(): Command {
  const command = new Command("run")
    .description("run a pipeline file, or a shipped pipeline by name (nightly-sft, nightly-rl, nightly-dpo): one night of an incremental dataset")
    .argument("<pipeline>", "a pipeline file, or a shipped pipeline's name; ${ENV} references are read from the environment")
    .option("--commit <when>", "a part of a partitioned night: `last` commits the night when this part is the last of the N to stage it (one part commits, by the storage's conditional write); its summary follows the night's");
  addRetiredEngineFlag(addOptionFlags(command, "pull", RUN_FLAGS));
  return command.action(
    runAction(async (path: string, flags: { commit?: string }, self: Command) => {
      const { loadPipeline } = await import("../pipeline-file/load-pipeline.js");
      retiredEngine(self);
      const { json, dryRun, force, workers, ...given } = optionsFromFlags(self, "pull", RUN_FLAGS);
      const spec = await loadPipeline(pipelineFileOf(path), process.env, toYamlKeys(RUN_FLAGS, "pull", given));
      const night = await launchNight(spec, { dryRun, force, workers, commit: flags.commit });
      const asJson = json === true || !process.stdout.isTTY;
      const code = reportNight(night, asJson);
      // A part's own night trips no guard (the commit judges the night): the commit's code is the job's.
      return night.commit === undefined || code !== 0 ? code : reportCommit(night.commit, asJson);
    }),
  );
}
