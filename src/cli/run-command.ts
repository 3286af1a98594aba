import { Command } from "commander";
import { nightlyEnvironment, reportNight } from "./nightly-output.js";
import { leaveNothingCreated } from "./leave-nothing-created.js";
import { runAction } from "./run-action.js";
import { applyHeapGrowingPercent } from "./heap-growing-percent.js";
import { OPTIONS } from "../plan/options.js";

const DRY_RUN_HELP = OPTIONS.dryRun.help;

export function runCommand(): Command {
  return new Command("run")
    .description("run a pipeline file (pipelines/*.yaml): one night of an incremental dataset")
    .argument("<pipeline>", "a pipeline file; ${ENV} references are read from the environment")
    .option("--json", "print the night's summary as one JSON line")
    .option("--dry-run", DRY_RUN_HELP)
    .action(
      runAction(async (path: string, flags: { json?: boolean; dryRun?: boolean }) => {
        const [{ runNightly, outputDirOf }, { loadPipeline }] = await Promise.all([import("../jobs/nightly/run-nightly.js"), import("../pipeline-file/load-pipeline.js")]);
        const spec = await loadPipeline(path);
        const dryRun = flags.dryRun === true;
        applyHeapGrowingPercent(); // before the night allocates: the CLI's process is the job's
        const environment = nightlyEnvironment(spec.name);
        const night = await leaveNothingCreated(outputDirOf(spec), () => runNightly(spec, environment, { dryRun }), { always: dryRun }).finally(() => environment.end());
        return reportNight(night, flags.json === true || !process.stdout.isTTY);
      }),
    );
}
