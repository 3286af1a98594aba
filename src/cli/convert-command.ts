import { availableParallelism } from "node:os";
import { Command, Option } from "commander";
import { prestartWorkers } from "../parallel/prestart-workers.js";
import { DEFAULTS } from "../convert-options.js";
import { ENGINES, parallelOutputRefusal } from "../convert-options.js";
import type { Compression, Engine, OutputKind } from "../convert-options.js";
import { FORMAT_NAMES } from "../formats/format.js";
import type { FormatName } from "../formats/format.js";
import { EXIT } from "./exit-codes.js";
import { filterFlags, filtersFrom, printSummary } from "./shared-flags.js";
import { byteSize, oneOf, pathPolicy, ratio, wholeNumber } from "../plan/parse-text.js";
import { runAction } from "./run-action.js";

interface ConvertFlags {
  out: string;
  to: OutputKind;
  format?: FormatName;
  scorecards?: string;
  untrusted?: Record<string, string>;
  shardRows: number;
  shardBytes: number;
  compression: Compression;
  maxQuarantined: number;
  maxLineBytes: number;
  acceptLaterMinor?: boolean;
  engine: Engine;
  workers?: number;
  json?: boolean;
  [flag: string]: unknown;
}

export function convertCommand(): Command {
  const command = new Command("convert")
    .description("validate, de-duplicate, filter and strip export files into sharded Parquet or JSONL with a manifest")
    .argument("<inputs...>", "NDJSON/JSONL files (.gz, .zst), directories, or - for stdin")
    .requiredOption("--out <dir>", "output directory (published atomically)")
    .addOption(new Option("--to <kind>", "output format").choices(["parquet", "jsonl"]).default(DEFAULTS.to))
    .addOption(new Option("--format <name>", "force the record format instead of detecting it").choices([...FORMAT_NAMES]))
    .option("--scorecards <file>", "scorecards (NDJSON or JSON) used to drop participation-gated runs")
    .option("--untrusted <path=policy>", "policy for an untrusted path: drop, redact or keep (repeatable)", pathPolicy)
    .option("--shard-rows <n>", "rows per shard at most", wholeNumber("--shard-rows"), DEFAULTS.shardRows)
    .option("--shard-bytes <size>", "uncompressed record bytes per shard at most (e.g. 512MiB)", byteSize("--shard-bytes"), DEFAULTS.shardBytes)
    .option("--compression <codec>", "zstd, gzip, snappy (parquet only) or none", oneOf("--compression", ["zstd", "gzip", "snappy", "none"] as const), DEFAULTS.compression)
    .option("--max-quarantined <ratio>", "exit 3 when more than this share of records is quarantined", ratio("--max-quarantined"), DEFAULTS.maxQuarantined)
    .option("--max-line-bytes <size>", "quarantine lines longer than this as line_too_long", byteSize("--max-line-bytes"), DEFAULTS.maxLineBytes)
    .option("--accept-later-minor", "accept later minor versions of the supported major version")
    .addOption(
      new Option("--engine <name>", "parallel: worker threads and one read (Parquet); stages: one record at a time through the library's stages; auto: parallel where it can run")
        .choices([...ENGINES])
        .default(DEFAULTS.engine),
    )
    .option("--workers <n>", "worker threads of the parallel engine (default: available cores)", wholeNumber("--workers"))
    .option("--json", "print the manifest as JSON instead of a summary");
  filterFlags(command);
  return command.action(
    runAction(async (inputs: string[], flags: ConvertFlags) => {
      // The workers load their code while main loads the pipeline's (cli/main.ts may have started them already).
      if (flags.engine !== "stages" && parallelOutputRefusal(flags.to, flags.compression) === null) prestartWorkers(flags.workers ?? Math.max(1, availableParallelism()));
      // Loaded when run, so other commands (and --help) start without it.
      const { convert } = await import("../convert.js");
      const result = await convert({
        inputs,
        out: flags.out,
        to: flags.to,
        ...(flags.format === undefined ? {} : { format: flags.format }),
        ...(flags.scorecards === undefined ? {} : { scorecards: flags.scorecards }),
        untrusted: flags.untrusted ?? {},
        filters: filtersFrom(flags),
        shardRows: flags.shardRows,
        shardBytes: flags.shardBytes,
        compression: flags.compression,
        maxQuarantined: flags.maxQuarantined,
        maxLineBytes: flags.maxLineBytes,
        acceptLaterMinor: flags.acceptLaterMinor === true,
        engine: flags.engine,
        ...(flags.workers === undefined ? {} : { workers: flags.workers }),
      });
      if (flags.json === true) process.stdout.write(`${JSON.stringify(result.manifest)}\n`);
      else printSummary(result.manifest, result.outDir);
      if (result.quarantineExceeded) {
        process.stderr.write(
          `evalshard: published, but ${(result.manifest.quarantined_share * 100).toFixed(2)}% of records were quarantined (over --max-quarantined ${flags.maxQuarantined}); see ${result.manifest.quarantine?.path ?? "_quarantine/"}\n`,
        );
        return EXIT.quarantineExceeded;
      }
      return EXIT.ok;
    }),
  );
}
