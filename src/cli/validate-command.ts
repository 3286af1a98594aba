import { Command, Option } from "commander";
import { FORMAT_NAMES } from "../formats/format.js";
import type { FormatName } from "../formats/format.js";
import { DEFAULTS } from "../convert-options.js";
import { EXIT } from "./exit-codes.js";
import { byteSize, pathPolicy, ratio, wholeNumber } from "../plan/parse-text.js";
import { runAction } from "./run-action.js";
import { filterFlags, filtersFrom, printSummary } from "./shared-flags.js";

interface ValidateFlags {
  format?: FormatName;
  scorecards?: string;
  untrusted?: Record<string, string>;
  maxQuarantined: number;
  maxLineBytes: number;
  acceptLaterMinor?: boolean;
  show: number;
  json?: boolean;
  [flag: string]: unknown;
}

export function validateCommand(): Command {
  const command = new Command("validate")
    .description("run convert's checks without writing: counts by reason and the first offending lines")
    .argument("<inputs...>", "NDJSON/JSONL files (.gz, .zst), directories, or - for stdin")
    .addOption(new Option("--format <name>", "force the record format").choices([...FORMAT_NAMES]))
    .option("--scorecards <file>", "scorecards (NDJSON or JSON) used to recognise participation-gated runs")
    .option("--untrusted <path=policy>", "policy for an untrusted path (repeatable)", pathPolicy)
    .option("--max-quarantined <ratio>", "exit 3 when more than this share of records would be quarantined", ratio("--max-quarantined"), DEFAULTS.maxQuarantined)
    .option("--max-line-bytes <size>", "lines longer than this are line_too_long", byteSize("--max-line-bytes"), DEFAULTS.maxLineBytes)
    .option("--accept-later-minor", "accept later minor versions of the supported major version")
    .option("--show <n>", "how many offending lines to print", wholeNumber("--show"), 10)
    .option("--json", "print the result as JSON");
  filterFlags(command);
  return command.action(
    runAction(async (inputs: string[], flags: ValidateFlags) => {
      const { validateInputs } = await import("../validate-inputs.js");
      const result = await validateInputs({
        inputs,
        ...(flags.format === undefined ? {} : { format: flags.format }),
        ...(flags.scorecards === undefined ? {} : { scorecards: flags.scorecards }),
        untrusted: flags.untrusted ?? {},
        filters: filtersFrom(flags),
        maxLineBytes: flags.maxLineBytes,
        acceptLaterMinor: flags.acceptLaterMinor === true,
        firstBad: flags.show,
      });
      if (flags.json === true) {
        process.stdout.write(`${JSON.stringify(result)}\n`);
      } else {
        process.stdout.write(`format ${result.format}\n`);
        printSummary(result);
        for (const bad of result.first_bad) process.stdout.write(`${bad.source}:${bad.line} (offset ${bad.offset}) ${bad.reason}: ${bad.detail}\n`);
      }
      return result.quarantined_share > flags.maxQuarantined ? EXIT.quarantineExceeded : EXIT.ok;
    }),
  );
}
