import { Command } from "commander";
import { nightlyEnvironment, reportNight } from "./nightly-output.js";
import { runAction } from "./run-action.js";

export function runCommand(): Command {
  return new Command("run")
    .description("run a pipeline file (pipelines/*.yaml): one night of an incremental dataset")
    .argument("<pipeline>", "a pipeline file; ${ENV} references are read from the environment")
    .option("--json", "print the night's summary as one JSON line")
    .action(
      runAction(async (path: string, flags: { json?: boolean }) => {
        const [{ runNightly }, { loadPipeline }] = await Promise.all([import("../jobs/nightly/run-nightly.js"), import("../pipeline-file/load-pipeline.js")]);
        const spec = await loadPipeline(path);
        return reportNight(await runNightly(spec, nightlyEnvironment(spec.name)), flags.json === true || !process.stdout.isTTY);
      }),
    );
}
