// Not storage-for.js: resolving a plan must not load the storages.
import { outputLocation } from "../output/output-location.js";
import { ConfigError } from "../core/errors.js";
import type { FilterRule } from "../core/reasons.js";
import { checkOptions } from "./check-options.js";
import type { CommandName, ResolvedOptionsOf } from "./option-spec.js";
import { OPTIONS } from "./options.js";
import type { ConvertOptions, Options, ValidateOptions } from "./options.js";
import type { RunPlan, ShardPlan, SourcePlan } from "./run-plan.js";
import { viewPlanOf, withViewDefaults } from "./view-plan-of.js";
import { SELECT_DEFAULTS } from "../stages/select-plan.js";
import { filterSettings } from "../stages/filter.js";
import { splitPlanOf } from "./split-plan-of.js";
import { withStdoutDefaults } from "./stdout-defaults.js";

type AllResolved = ResolvedOptionsOf<Options, "convert"> & ResolvedOptionsOf<Options, "validate"> & ResolvedOptionsOf<Options, "pull">;
/** Any of them, each possibly undefined: the table's default fills it. */
type Resolved = { readonly [K in keyof AllResolved]?: AllResolved[K] | undefined };

/**
 * A library call's options as a RunPlan: checked against the option table (a ConfigError names the option
 * and the value), defaults filled in, and the rules between options applied.
 */
export function resolvePlan(command: "convert", options: ConvertOptions): RunPlan;
export function resolvePlan(command: "validate", options: ValidateOptions): RunPlan;
export function resolvePlan(command: "convert" | "validate", options: ConvertOptions | ValidateOptions): RunPlan {
  const o: Resolved = checkOptions(OPTIONS, command, withStdoutDefaults(withViewDefaults(options)));
  // Issue 20: without scorecards no record can be recognised as gated; asked to, that is an error, not a warning.
  if (o.requireScorecards === true && o.scorecards === undefined && (o.filters as Partial<Record<FilterRule, boolean>> | undefined)?.participation_gated !== false) {
    throw new ConfigError("--require-scorecards: participation gating is on and no --scorecards were given (or turn the rule off with --no-filter-participation-gated)");
  }
  if (o.requireSuites === true && o.suitesFile === undefined) throw new ConfigError("--require-suites: no --suites file was given, so no record can be checked against the benchmark suites");
  if (o.runManifests !== undefined && o.suitesFile === undefined) throw new ConfigError(`--run-manifests ${JSON.stringify(o.runManifests)} goes with --suites FILE`);
  const decontamination = { ...(o.suitesFile === undefined ? {} : { suites: o.suitesFile }), ...(o.runManifests === undefined ? {} : { runManifests: o.runManifests }) };
  return planOf(command, o, { kind: "files", inputs: o.inputs ?? [], stdin: o.stdin, scorecards: o.scorecards, ...decontamination });
}

/** The plan of a nightly job (a pipeline file, or `pull`'s flags), from options already checked against the table. */
export function nightlyPlan(o: Resolved, source: SourcePlan): RunPlan {
  return planOf("pull", o, source);
}

// Defaults are filled by `checkOptions` (library, CLI) or by the pipeline file's schema; the fallbacks here
// name the table's, for the options a command does not take.
function planOf(command: CommandName, o: Resolved, source: SourcePlan): RunPlan {
  const to = o.to ?? OPTIONS.to.default;
  const compression = o.compression ?? OPTIONS.compression.default;
  // snappy is Parquet's alone; the choices list every codec, so this rule between two options lives here.
  if (to === "jsonl" && compression === "snappy") {
    throw new ConfigError(`Compression ${JSON.stringify(compression)} is not available for ${to}: expected one of zstd, gzip, none`);
  }
  const shards: ShardPlan = {
    to,
    compression,
    rotation: command === "pull" ? { kind: "buckets", buckets: o.buckets ?? OPTIONS.buckets.default, keepSnapshots: o.keepSnapshots ?? OPTIONS.keepSnapshots.default } : { kind: "size", maxRows: o.shardRows ?? OPTIONS.shardRows.default, maxBytes: o.shardBytes ?? OPTIONS.shardBytes.default },
    snapshotGraceMs: (o.snapshotGrace ?? OPTIONS.snapshotGrace.default) * 1000,
  };
  const untrusted = o.untrusted ?? {};
  if (o.out !== undefined && outputLocation(o.out).kind === "stdout") {
    if (command === "pull") throw new ConfigError(`Output "-": a nightly dataset keeps its state between nights, so it needs a directory or s3://BUCKET/PREFIX; convert writes to standard output`);
    if (to !== "jsonl") throw new ConfigError(`Output "-" writes JSON Lines to standard output: add --to jsonl (plain text unless --compression is named), got --to ${to}`);
  }
  if (o.manifestFile !== undefined && o.out !== "-") throw new ConfigError(`--manifest ${JSON.stringify(o.manifestFile)} goes with --out - (a dataset directory holds its manifest.json)`);
  const view = viewPlanOf(command, o, { to: command === "validate" ? undefined : to, format: o.format, source: source.kind });
  const split = splitPlanOf(o);
  return {
    command,
    source,
    out: o.out,
    ...(o.manifestFile === undefined ? {} : { manifestFile: o.manifestFile }),
    ...(o.leaseSeconds === undefined ? {} : { leaseMs: o.leaseSeconds * 1000 }),
    format: o.format === undefined ? { detect: true } : { forced: o.format },
    acceptLaterMinor: o.acceptLaterMinor ?? OPTIONS.acceptLaterMinor.default,
    filters: filterSettings(o.filters),
    gateBy: o.gateBy ?? OPTIONS.gateBy.default,
    selection: {
      seats: o.seats ?? SELECT_DEFAULTS.seats,
      agentKeys: o.agentKeys ?? null,
      roles: o.roles ?? null,
      campaigns: o.campaigns ?? null,
      minComposite: o.minComposite ?? null,
      minObjectiveRate: o.minObjectiveRate ?? null,
      topKPerScenario: o.topKPerScenario ?? null,
    },
    requireScorecards: o.requireScorecards ?? OPTIONS.requireScorecards.default,
    requireSuites: o.requireSuites ?? OPTIONS.requireSuites.default,
    untrusted,
    columns: { from: "format", untrusted },
    dedup: { key: "format", keep: "latest-scorecard" },
    shards,
    guards: {
      maxQuarantined: o.maxQuarantined ?? OPTIONS.maxQuarantined.default,
      maxStreamErrors: o.maxStreamErrors ?? OPTIONS.maxStreamErrors.default,
      minRecords: o.minRecords ?? OPTIONS.minRecords.default,
      maxShrink: o.maxShrink ?? OPTIONS.maxShrink.default,
      publishAnyway: o.publishAnyway ?? OPTIONS.publishAnyway.default,
      maxLineBytes: o.maxLineBytes ?? OPTIONS.maxLineBytes.default,
    },
    engine: { workers: o.workers ?? OPTIONS.workers.default() },
    firstBad: o.firstBad ?? OPTIONS.firstBad.default,
    ...(view === undefined ? {} : { view }),
    ...(split === undefined ? {} : { split }),
  };
}
