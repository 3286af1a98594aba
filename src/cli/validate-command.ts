import { Command } from "commander";
import { prestartWorkers } from "../engines/parallel/index.js";
import type { ValidateOptions } from "../plan/options.js";
import { resolvePlan } from "../plan/resolve-plan.js";
import { exitOfDecision } from "./exit-codes.js";
import { describeTrippedGuards } from "../output/publish-guard.js";
import { addOptionFlags, optionsFromFlags } from "./option-flags.js";
import { ERROR_PREFIX, runAction } from "./run-action.js";
import { printSummary, printWarnings } from "./shared-flags.js";

export function validateCommand(): Command {
  const command = new Command("validate").description("run convert's checks without writing: counts by reason and the first offending lines");
  addOptionFlags(command, "validate");
  return command.action(
    runAction(async (...args: unknown[]) => {
      const { json, ...given } = optionsFromFlags(args.at(-1) as Command, "validate");
      const options = given as unknown as ValidateOptions & { inputs: readonly string[] };
      // As convert: only the CLI prestarts the units' workers.
      prestartWorkers(resolvePlan("validate", options).engine.workers);
      const { validateInputs } = await import("../jobs/validate.js");
      const result = await validateInputs(options);
      printWarnings(result.warnings);
      if (json === true) {
        process.stdout.write(`${JSON.stringify(result)}\n`);
      } else {
        process.stdout.write(`format ${result.format}\n`);
        // With --view, what it would produce: its rows and losses line, as convert prints it.
        printSummary(result);
        for (const bad of result.first_bad) process.stdout.write(`${bad.source}:${bad.line} (offset ${bad.offset}) ${bad.reason}: ${bad.detail}\n`);
      }
      // The exit code convert would give: the first tripped guard's (exit-codes.ts).
      if (result.guards.tripped.length > 0) process.stderr.write(`${ERROR_PREFIX}convert would not publish this: ${describeTrippedGuards(result.guards.tripped)}\n`);
      return exitOfDecision(result.guards);
    }),
  );
}
