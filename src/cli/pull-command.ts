import { Command, Option } from "commander";
import { ConfigError } from "../errors.js";
import { DEFAULTS } from "../convert-options.js";
import { nightlyEnvironment, reportNight } from "./nightly-output.js";
import { byteSize, oneOf, pathPolicy, ratio, wholeNumber } from "../plan/parse-text.js";
import { runAction } from "./run-action.js";
import { filterFlags, filtersFrom } from "./shared-flags.js";

interface PullFlags {
  baseUrl: string;
  out: string;
  auth: "agent" | "owner";
  concurrency: number;
  partition?: string;
  buckets: number;
  to: "parquet" | "jsonl";
  compression: string;
  untrusted?: Record<string, string>;
  dpoStrategy: string;
  maxPairsPerScenario: number;
  maxQuarantined: number;
  maxLineBytes: number;
  json?: boolean;
  [flag: string]: unknown;
}

/** `evalshard pull`: the nightly job from flags instead of a pipeline file; the same code path as `run`. */
export function pullCommand(): Command {
  const command = new Command("pull")
    .description("pull one format from the service into an incremental dataset (credentials from EVAL_API_KEY or EVAL_OWNER_TOKEN)")
    .argument("<format>", "sft, rl or dpo", oneOf("<format>", ["sft", "rl", "dpo"] as const))
    .requiredOption("--base-url <url>", "the service, e.g. the emulator's url")
    .requiredOption("--out <dir>", "output directory; its _state/ ledger makes reruns incremental")
    .addOption(new Option("--auth <mode>", "agent routes (EVAL_API_KEY) or owner routes (EVAL_OWNER_TOKEN)").choices(["agent", "owner"]).default("owner"))
    .option("--concurrency <n>", "requests in flight at most", wholeNumber("--concurrency"), 4)
    .option("--partition <k/N>", "this job's stable hash share of the runs, for N parallel jobs")
    .option("--buckets <n>", "fixed number of shards", wholeNumber("--buckets"), 16)
    .addOption(new Option("--to <kind>", "shard format").choices(["parquet", "jsonl"]).default("parquet"))
    .option("--compression <codec>", "zstd, gzip, snappy (parquet only) or none", oneOf("--compression", ["zstd", "gzip", "snappy", "none"] as const), "zstd")
    .option("--untrusted <path=policy>", "policy for an untrusted path: drop, redact or keep (repeatable)", pathPolicy)
    .option("--dpo-strategy <strategy>", "DPO pairing: best-worst, adjacent or all", oneOf("--dpo-strategy", ["best-worst", "adjacent", "all"] as const), "best-worst")
    .option("--max-pairs-per-scenario <n>", "DPO pairs per scenario at most", wholeNumber("--max-pairs-per-scenario"), 10)
    .option("--max-quarantined <ratio>", "exit 3 when more than this share of records is quarantined", ratio("--max-quarantined"), DEFAULTS.maxQuarantined)
    .option("--max-line-bytes <size>", "quarantine longer lines as line_too_long", byteSize("--max-line-bytes"), DEFAULTS.maxLineBytes)
    .option("--json", "print the night's summary as one JSON line");
  filterFlags(command);
  return command.action(
    runAction(async (format: "sft" | "rl" | "dpo", flags: PullFlags) => {
      const [{ runNightly }, { pipelineSpec }, { describeIssues }] = await Promise.all([import("../nightly/run-nightly.js"), import("../pipeline-file/pipeline-spec.js"), import("../stages/describe-issues.js")]);
      const parsed = pipelineSpec.safeParse({
        version: 1,
        name: `pull-${format}`,
        source: {
          kind: "http",
          base_url: flags.baseUrl,
          auth: flags.auth,
          format,
          concurrency: flags.concurrency,
          ...(flags.partition === undefined ? {} : { partition: flags.partition }),
          ...(format === "dpo" ? { dpo: { strategy: flags.dpoStrategy, max_pairs_per_scenario: flags.maxPairsPerScenario } } : {}),
        },
        filters: filtersFrom(flags),
        untrusted: flags.untrusted ?? {},
        output: { dir: flags.out, to: flags.to, compression: flags.compression, buckets: flags.buckets },
        max_quarantined: flags.maxQuarantined,
        max_line_bytes: flags.maxLineBytes,
      });
      if (!parsed.success) throw new ConfigError(`Invalid pull options: ${describeIssues(parsed.error.issues)}`);
      return reportNight(await runNightly(parsed.data, nightlyEnvironment(parsed.data.name)), flags.json === true || !process.stdout.isTTY);
    }),
  );
}
