import { splitSkewWarnings } from "../splits/split-skew-warnings.js";
import { runEngine } from "../engines/parallel/index.js";
import type { EngineRun } from "../engines/engine.js";
import { sizeRotation } from "../engines/size-rotation.js";
import { datasetCard } from "../output/dataset-card.js";
import { DatasetSink } from "../dataset/dataset-sink.js";
import { openOutput } from "../output/open-output.js";
import { buildManifest } from "../output/manifest.js";
import type { Manifest } from "../output/manifest.js";
import { decidePublish } from "../output/publish-guard.js";
import { rowsOf } from "../output/published-rows.js";
import type { PublishDecision } from "../output/publish-guard.js";
import type { ConvertOptions } from "../plan/options.js";
import { resolvePlan } from "../plan/resolve-plan.js";
import type { RunPlan } from "../plan/run-plan.js";
import { openSources } from "./open-sources.js";
import type { OpenedSources } from "./open-sources.js";
import { scorecardsSummary, selectionWarnings } from "./scorecards-summary.js";
import type { ConvertHooks } from "./convert-phase.js";
import { ConfigError } from "../core/errors.js";
import { countTotal } from "../core/tally.js";
import { decontaminationManifest, decontaminationSentence } from "../output/decontamination.js";

export interface ConvertResult {
  readonly manifest: Manifest;
  /** The publish guards' verdict (also `manifest.publish`): what tripped, and whether the dataset was replaced. */
  readonly decision: PublishDecision;
  readonly outDir: string;
  /** Where the files went: the dataset, or the refused attempt's folder under `_rejected/`. */
  readonly writtenTo: string;
}

const SPLIT = "train";

/**
 * Turns export files into a published dataset: validated, de-duplicated, filtered and stripped
 * records in sharded Parquet or JSONL, a quarantine of every bad line, a dataset card and a manifest.
 * The previous output stays untouched until the new one is complete. `hooks` hear each phase as it ends.
 */
export async function convert(options: ConvertOptions, hooks: ConvertHooks = {}): Promise<ConvertResult> {
  const plan = resolvePlan("convert", options);
  const out = plan.out as string; // required by the option table
  const startedAt = new Date().toISOString();
  const storage = { snapshotGraceMs: plan.shards.snapshotGraceMs, ...(plan.manifestFile === undefined ? {} : { manifestFile: plan.manifestFile }), ...(plan.leaseMs === undefined ? {} : { leaseMs: plan.leaseMs }) };
  const { sink, published } = await openOutput(out, { inputs: inputPaths(plan), storage, force: options.force === true }, (opened) => DatasetSink.open(opened, { split: SPLIT }));
  try {
    const sources = await openSources(plan, sink.scratch);
    hooks.onPhase?.({ phase: "opened", inputs: sources.lines.length });
    const run = await runEngine(plan, sources, sink);
    const undecided = sources.decontamination?.book.undecided ?? 0;
    if (plan.requireSuites && undecided > 0) {
      throw new ConfigError(`--require-suites: ${undecided} record(s) carry no scenario_version_hash and their runs are not in --run-manifests, so they cannot be checked against the benchmark suites`);
    }
    // Judged before anything is published: over a guard, the previous dataset stays (issue 20).
    const counts = run.tally.counts();
    hooks.onPhase?.({ phase: "converted", engine: run.engine, records_in: counts.records_in, records_out: counts.records_out, quarantined: countTotal(counts.quarantined), stream_errors: counts.stream_errors });
    const rows = published === null ? {} : { rows: { published, out: rowsOf(run.shards) } };
    const decision = decidePublish(plan.guards, { ...counts, quarantined_share: run.tally.quarantinedShare(), ...rows });
    // A rejected attempt keeps its files at their own paths under _rejected/; a published one under the base.
    const manifest = await manifestOf(plan, sources, run, startedAt, decision, decision.published ? sink.base : "");
    const card = datasetCard({
      format: run.format,
      columns: run.columns,
      shards: run.shards,
      splitName: SPLIT,
      base: sink.base,
      ...(run.view === undefined ? {} : { view: run.view.card }),
      ...(run.split === undefined ? {} : { split: run.split }),
      ...(manifest.decontamination === undefined ? {} : { decontamination: decontaminationSentence(manifest.decontamination) }),
    });
    const writtenTo = await sink.publish({ card, manifest }, decision);
    hooks.onPhase?.({ phase: "published", published: decision.published, shards: run.shards.length, records_out: counts.records_out, written_to: writtenTo });
    return { manifest, decision, outDir: out, writtenTo };
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

function manifestOf(plan: RunPlan, sources: OpenedSources, run: EngineRun, startedAt: string, publish: PublishDecision, base: string): Promise<Manifest> {
  const rotation = sizeRotation(plan);
  const facts = { startedAt, base, format: run.format, tally: run.tally, shards: run.shards, sources: sources.lines, quarantine: run.quarantine, untrusted: run.policy.summary, warnings: [...selectionWarnings(plan, sources.scorecards), ...splitSkewWarnings(run.split)] };
  const suites = sources.decontamination;
  const decontamination = suites === undefined ? undefined : decontaminationManifest(suites.path, suites.sha256, suites.suites, suites.book);
  const undecided = decontamination?.undecided_records ?? 0;
  const warnings = [...facts.warnings, ...(undecided === 0 ? [] : [`decontamination: ${undecided} record(s) carry no scenario_version_hash and their runs are not in --run-manifests: kept unchecked (--require-suites makes this an error)`])];
  return buildManifest<Pick<Manifest, "output" | "options" | "text_audit" | "view" | "stream_error_runs" | "publish" | "split" | "stats" | "decontamination">>({ ...facts, warnings }, {
    stream_error_runs: run.tally.streamErrorRuns(),
    publish,
    output: { to: plan.shards.to, compression: plan.shards.compression, layout: "huggingface", split: run.split === undefined ? SPLIT : Object.keys(run.split.splits), engine: run.engine },
    options: {
      filters: plan.filters,
      gate_by: plan.gateBy,
      selection: plan.selection,
      scorecards: scorecardsSummary(plan, sources.scorecards),
      shard_rows: rotation.maxRows,
      shard_bytes: rotation.maxBytes,
      max_line_bytes: plan.guards.maxLineBytes,
      max_quarantined: plan.guards.maxQuarantined,
      accept_later_minor: plan.acceptLaterMinor,
    },
    ...(run.textAudit === undefined ? {} : { text_audit: run.textAudit }),
    ...(run.view === undefined ? {} : { view: run.view.manifest }),
    ...(run.split === undefined ? {} : { split: run.split }),
    stats: run.stats.toManifest(),
    ...(decontamination === undefined ? {} : { decontamination }),
  });
}

/** The paths a conversion reads (a library's own LineSource is no path). */
function inputPaths(plan: RunPlan): string[] {
  if (plan.source.kind !== "files") return [];
  const { scorecards, suites, runManifests } = plan.source;
  const paths = [...plan.source.inputs, ...(plan.view?.context ?? []), ...[scorecards, suites, runManifests].filter((p) => p !== undefined)];
  return paths.filter((p): p is string => typeof p === "string");
}
