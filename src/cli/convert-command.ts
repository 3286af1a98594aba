import { Command } from "commander";
import { prestartWorkers } from "../engines/parallel/index.js";
import type { ConvertOptions } from "../plan/options.js";
import { resolvePlan } from "../plan/resolve-plan.js";
import { addOptionFlags, optionsFromFlags } from "./option-flags.js";
import { convertProgress } from "./convert-progress.js";
import { leaveNothingCreated } from "./leave-nothing-created.js";
import { printSummary, printWarnings } from "./shared-flags.js";
import { refuseBinaryOnTerminal } from "./refuse-binary-on-terminal.js";
import { reportDecision, runAction } from "./run-action.js";
import { addRetiredEngineFlag, retiredEngine } from "./retired-engine-flag.js";

export function convertCommand(): Command {
  const command = new Command("convert").description("validate, de-duplicate, filter and strip export files into sharded Parquet or JSONL with a manifest");
  addRetiredEngineFlag(addOptionFlags(command, "convert"));
  return command.action(
    runAction(async (...args: unknown[]) => {
      const self = args.at(-1) as Command;
      retiredEngine(self);
      const { json, ...given } = optionsFromFlags(self, "convert");
      const options = given as unknown as ConvertOptions;
      const plan = resolvePlan("convert", options);
      refuseBinaryOnTerminal(plan);
      // Only the CLI prepares: the parallel engine's workers then start with flags a library caller may not want.
      prestartWorkers(plan.engine.workers);
      // Loaded when run, so other commands (and --help) start without it.
      const { convert } = await import("../jobs/convert.js");
      // Progress only where it cannot mix with the rows: with --out -, stderr may carry the manifest alone.
      const progress = plan.out === "-" ? undefined : convertProgress();
      // A failed convert leaves no empty --out folder it made (a refused one keeps its attempt under _rejected/).
      const result = await leaveNothingCreated(plan.out, () => convert(options, progress ?? {})).finally(() => progress?.end());
      // With --out - and no --manifest, stderr carries the manifest alone (its warnings are in it).
      if (plan.out !== "-" || plan.manifestFile !== undefined) printWarnings(result.manifest.warnings);
      // With --out -, standard output holds the rows alone (the manifest went to stderr or --manifest).
      if (plan.out !== "-") {
        if (json === true) process.stdout.write(`${JSON.stringify(result.manifest)}\n`);
        else printSummary(result.manifest, result.writtenTo);
      }
      return reportDecision(result.decision, result.outDir);
    }),
  );
}
