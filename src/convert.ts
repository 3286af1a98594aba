import { ConfigError } from "./core/errors.js";
import { detectInputFormat } from "./detect-input-format.js";
import { loadFormatInfo } from "./fast/load-format-info.js";
import { datasetCard } from "./output/dataset-card.js";
import { DatasetSink } from "./output/dataset-sink.js";
import { LocalStorage } from "./output/local-storage.js";
import { parserSchemaFor } from "./fast/parser-schema-for.js";
import type { FormatBasics } from "./formats/format.js";
import { formatName } from "./formats/format.js";
import { convertInParallel } from "./parallel/convert-in-parallel.js";
import { columnPlan } from "./parquet/column-plan.js";
import type { Field } from "./schema/column-type.js";
import type { ShardInfo } from "./output/shard-format.js";
import { outputColumns, resolveUntrustedPolicy } from "./stages/untrusted-policy.js";
import type { UntrustedPolicy } from "./stages/untrusted-policy.js";
import { parallelOutputRefusal } from "./convert-options.js";
import type { ConvertOptions } from "./plan/options.js";
import { resolvePlan } from "./plan/resolve-plan.js";
import type { RunPlan } from "./plan/run-plan.js";
import { workerConfigOf } from "./parallel/worker-config-of.js";
import type { Manifest } from "./manifest.js";
import { reconciles } from "./manifest.js";
import type { PipelineOptions } from "./pipeline.js";
import { filterSettings, filterWarnings } from "./stages/filter.js";
import type { QuarantineWriter } from "./output/quarantine-writer.js";
import { expandInputs } from "./sources/expand-inputs.js";
import type { LineSource } from "./sources/line-source.js";
import { readGatedRuns } from "./sources/scorecard-file.js";
import { Tally } from "./core/tally.js";
import { EVALSHARD_VERSION } from "./core/version.js";
import type { ViewWritten } from "./write-view.js";
import type { PathAudit } from "./views/text-audit.js";

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
  const sink = await DatasetSink.open(new LocalStorage(out), { split: SPLIT });
  try {
    const { manifest, card } = await build(plan, sink, startedAt);
    await sink.publish({ card, manifest });
    return { manifest, quarantineExceeded: manifest.quarantined_share > plan.guards.maxQuarantined, outDir: out };
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

/** What either engine wrote into the sink, for the card and the manifest. */
interface Written {
  readonly engine: "parallel" | "stages";
  readonly format: FormatBasics;
  readonly policy: UntrustedPolicy;
  readonly columns: readonly Field[];
  readonly shards: ShardInfo[];
  readonly tally: Tally;
  readonly quarantine: QuarantineWriter;
  /** Issue 18: the injection and control-token scan of the texts kept (stages engine only, for now). */
  readonly textAudit?: Readonly<Record<string, PathAudit>>;
}

/** Everything but the publish: writes the shards and the quarantine into the sink, and says what they are. */
async function build(plan: RunPlan, sink: DatasetSink, startedAt: string): Promise<{ manifest: Manifest; card: string }> {
  const sources = await openSources(plan, sink.scratch);
  const scorecards = plan.source.kind === "files" ? plan.source.scorecards : undefined;
  const gatedRuns = scorecards === undefined ? undefined : await readGatedRuns(scorecards);
  const engine = chooseEngine(plan, sources);
  // Issue 18: a training view runs on the stages engine (the parallel engine refuses it in chooseEngine).
  const viewed: ViewWritten | undefined = plan.view === undefined ? undefined : await (await import("./write-view.js")).writeView(plan, sink, sources, gatedRuns);
  const written: Written = viewed ?? (engine === "parallel" ? await writeInParallel(plan, sink, sources, gatedRuns) : await writeWithStages(plan, sink, sources, gatedRuns));
  const { format, columns, shards, tally, quarantine } = written;
  const rotation = sizeRotation(plan);
  const counts = tally.counts();
  if (!reconciles(counts)) throw new Error(`Internal error: counts do not reconcile: ${JSON.stringify(counts)}`);
  const card = datasetCard({ format, columns, shards, splitName: SPLIT, ...(viewed === undefined ? {} : { view: viewed.card }) });
  const manifest: Manifest = {
    evalshard_version: EVALSHARD_VERSION,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    format: { name: format.name, version_field: format.versionField, version: format.version },
    output: { to: plan.shards.to, compression: plan.shards.compression, layout: "huggingface", split: SPLIT, engine: written.engine },
    ...counts,
    shards,
    inputs: await Promise.all(sources.map((s) => s.info())),
    quarantine: quarantine.entries === 0 ? null : { path: quarantine.path, entries: quarantine.entries },
    options: {
      filters: filterSettings(plan.filters),
      scorecards: scorecards === undefined || gatedRuns === undefined ? null : { path: scorecards, gated_runs: gatedRuns.size },
      shard_rows: rotation.maxRows,
      shard_bytes: rotation.maxBytes,
      max_line_bytes: plan.guards.maxLineBytes,
      max_quarantined: plan.guards.maxQuarantined,
      accept_later_minor: plan.acceptLaterMinor,
    },
    untrusted: written.policy.summary,
    quarantined_share: tally.quarantinedShare(),
    warnings: filterWarnings(plan.filters, gatedRuns),
    ...(written.textAudit === undefined ? {} : { text_audit: written.textAudit }),
    ...(viewed === undefined ? {} : { view: viewed.view }),
  };
  return { manifest, card };
}

/** The parallel engine runs Parquet with a codec it encodes, from inputs it can read as bytes. */
function chooseEngine(plan: RunPlan, sources: readonly LineSource[]): "parallel" | "stages" {
  const engine = plan.engine.choice;
  if (engine === "stages") return "stages";
  const unreadable = sources.find((s) => s.bytes === undefined);
  const why =
    parallelOutputRefusal(plan.shards.to, plan.shards.compression) ??
    // Issue 18: the parallel engine does not build training views.
    (plan.view === undefined ? null : `it does not build training views (--view ${plan.view.name})`) ??
    (unreadable === undefined ? null : `input ${JSON.stringify(unreadable.name)} cannot be read as bytes`);
  if (why === null) return "parallel";
  if (engine === "parallel") throw new ConfigError(`The parallel engine cannot run this conversion: ${why}; use --engine stages or auto`);
  return "stages";
}

/** The library's stages, one record at a time: reads the inputs twice (the first read settles dedup). */
async function writeWithStages(plan: RunPlan, sink: DatasetSink, sources: LineSource[], gatedRuns: ReadonlySet<string> | undefined): Promise<Written> {
  // Loaded here, not at start-up: they bring zod and the shard writers, which the parallel engine's main thread does without.
  const [{ planPipeline, runPipeline }, { formatByName }, { shardFormatFor }, { RecordTextAudit }] = await Promise.all([
    import("./pipeline.js"),
    import("./formats/index.js"),
    import("./sinks/shard-format-for.js"),
    import("./views/record-text-audit.js"),
  ]);
  const pipelineOptions: PipelineOptions = {
    ...("forced" in plan.format ? { format: formatByName(plan.format.forced) } : {}),
    acceptLaterMinor: plan.acceptLaterMinor,
    read: { maxLineBytes: plan.guards.maxLineBytes },
    filters: plan.filters,
    ...(gatedRuns === undefined ? {} : { gatedRuns }),
    untrusted: plan.untrusted,
  };
  const settled = await planPipeline(sources, pipelineOptions);
  const shardFormat = shardFormatFor(plan.shards.to, plan.shards.compression);
  const writer = sink.records(shardFormat, settled.columns, sizeRotation(plan));
  const quarantine = sink.quarantine(settled.format.name);
  const tally = new Tally();
  const textAudit = new RecordTextAudit(settled.format); // issue 18
  try {
    for await (const item of runPipeline(sources, settled, pipelineOptions)) {
      tally.add(item);
      if (item.kind === "kept") {
        textAudit.add(item.value.record);
        await writer.write(item.value.record, item.value.bytes);
      }
      else if (item.kind === "quarantined") await quarantine.write(item);
    }
    const shards = await writer.finish();
    return { engine: "stages", format: settled.format, policy: settled.policy, columns: settled.columns, shards, tally, quarantine, textAudit: textAudit.summary() };
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    await quarantine.close();
    await shardFormat.dispose();
  }
}

/** Worker threads over one read of the inputs (src/parallel). */
async function writeInParallel(plan: RunPlan, sink: DatasetSink, sources: LineSource[], gatedRuns: ReadonlySet<string> | undefined): Promise<Written> {
  const read = { maxLineBytes: plan.guards.maxLineBytes };
  const format = await loadFormatInfo("forced" in plan.format ? formatName(plan.format.forced) : await detectInputFormat(sources, read));
  const policy = resolveUntrustedPolicy(format, plan.untrusted);
  const columns = outputColumns(format, policy);
  const quarantine = sink.quarantine(format.name);
  const layout = columnPlan(columns);
  try {
    const { shards, tally } = await convertInParallel({
      sources,
      shards: () => sink.rowGroups(layout, `evalshard version ${EVALSHARD_VERSION}`),
      plan: layout,
      worker: workerConfigOf(plan, { format: format.name, gatedRuns, columns, schema: parserSchemaFor(format, policy) }),
      workers: plan.engine.workers,
      read,
      shardRows: sizeRotation(plan).maxRows,
      shardBytes: sizeRotation(plan).maxBytes,
      quarantine,
    });
    return { engine: "parallel", format, policy, columns, shards, tally, quarantine };
  } finally {
    await quarantine.close();
  }
}

async function openSources(plan: RunPlan, dir: string): Promise<LineSource[]> {
  if (plan.source.kind !== "files") throw new Error("Internal error: convert reads files");
  const { inputs, stdin } = plan.source;
  const options = { spoolDir: dir, ...(stdin === undefined ? {} : { stdin }) };
  if (inputs.every((i) => typeof i === "string")) return expandInputs(inputs as string[], options);
  // Ready sources stand where they were given, among expanded paths.
  const groups = await Promise.all(inputs.map((i) => (typeof i === "string" ? expandInputs([i], options) : [i])));
  return groups.flat();
}

/** convert's shards rotate by size. */
function sizeRotation(plan: RunPlan): { maxRows: number; maxBytes: number } {
  if (plan.shards.rotation.kind !== "size") throw new Error("Internal error: convert rotates shards by size");
  return plan.shards.rotation;
}
