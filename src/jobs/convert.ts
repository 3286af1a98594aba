import { chooseEngine } from "../engines/choose-engine.js";
import type { EngineRun, RunSources } from "../engines/engine.js";
import { sizeRotation } from "../engines/size-rotation.js";
import { datasetCard } from "../output/dataset-card.js";
import { DatasetSink } from "../output/dataset-sink.js";
import { storageFor } from "../output/storage-for.js";
import { buildManifest } from "../output/manifest.js";
import type { Manifest } from "../output/manifest.js";
import type { ConvertOptions } from "../plan/options.js";
import { resolvePlan } from "../plan/resolve-plan.js";
import type { RunPlan } from "../plan/run-plan.js";
import { filterSettings, filterWarnings } from "../stages/filter.js";
import { openSources } from "./open-sources.js";

export interface ConvertResult {
  readonly manifest: Manifest;
  /** The output was published, but the quarantined share is over `maxQuarantined`. */
  readonly quarantineExceeded: boolean;
  readonly outDir: string;
}

const SPLIT = "train";

/**
 * Turns export files into a published dataset: validated, de-duplicated, filtered and stripped
 * records in sharded Parquet or JSONL, a quarantine of every bad line, a dataset card and a manifest.
 * The previous output stays untouched until the new one is complete.
 */
export async function convert(options: ConvertOptions): Promise<ConvertResult> {
  const plan = resolvePlan("convert", options);
  const out = plan.out as string; // required by the option table
  const startedAt = new Date().toISOString();
  // Opening locks the output and recovers whatever a crashed earlier run left.
  const sink = await DatasetSink.open(await storageFor(out), { split: SPLIT });
  try {
    const sources = await openSources(plan, sink.scratch);
    const run = await chooseEngine(plan, sources).run(plan, sources, sink);
    const manifest = await manifestOf(plan, sources, run, startedAt);
    const card = datasetCard({
      format: run.format,
      columns: run.columns,
      shards: run.shards,
      splitName: SPLIT,
      base: sink.base,
      ...(run.view === undefined ? {} : { view: run.view.card }),
      ...(run.split === undefined ? {} : { split: run.split }),
    });
    await sink.publish({ card, manifest });
    return { manifest, quarantineExceeded: manifest.quarantined_share > plan.guards.maxQuarantined, outDir: out };
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

function manifestOf(plan: RunPlan, sources: RunSources, run: EngineRun, startedAt: string): Promise<Manifest> {
  const gatedRuns = sources.gatedRuns();
  const scorecards = plan.source.kind === "files" ? plan.source.scorecards : undefined;
  const rotation = sizeRotation(plan);
  const facts = { startedAt, format: run.format, tally: run.tally, shards: run.shards, sources: sources.lines, quarantine: run.quarantine, untrusted: run.policy.summary, warnings: filterWarnings(plan.filters, gatedRuns) };
  return buildManifest<Pick<Manifest, "output" | "options" | "text_audit" | "view" | "split">>(facts, {
    output: { to: plan.shards.to, compression: plan.shards.compression, layout: "huggingface", split: run.split === undefined ? SPLIT : Object.keys(run.split.splits), engine: run.engine },
    options: {
      filters: filterSettings(plan.filters),
      scorecards: scorecards === undefined || gatedRuns === undefined ? null : { path: scorecards, gated_runs: gatedRuns.size },
      shard_rows: rotation.maxRows,
      shard_bytes: rotation.maxBytes,
      max_line_bytes: plan.guards.maxLineBytes,
      max_quarantined: plan.guards.maxQuarantined,
      accept_later_minor: plan.acceptLaterMinor,
    },
    ...(run.textAudit === undefined ? {} : { text_audit: run.textAudit }),
    ...(run.view === undefined ? {} : { view: run.view.manifest }),
    ...(run.split === undefined ? {} : { split: run.split }),
  });
}
