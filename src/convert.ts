import { ConfigError } from "./errors.js";
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
import { parallelOutputRefusal, resolveConvertOptions } from "./convert-options.js";
import type { ConvertOptions, ResolvedConvertOptions } from "./convert-options.js";
import type { Manifest } from "./manifest.js";
import { reconciles } from "./manifest.js";
import type { PipelineOptions } from "./pipeline.js";
import { filterSettings, filterWarnings } from "./stages/filter.js";
import type { QuarantineWriter } from "./output/quarantine-writer.js";
import { expandInputs } from "./sources/expand-inputs.js";
import type { LineSource } from "./sources/line-source.js";
import { readGatedRuns } from "./sources/scorecard-file.js";
import { Tally } from "./tally.js";
import { EVALSHARD_VERSION } from "./version.js";

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
  const opts = resolveConvertOptions(options);
  const startedAt = new Date().toISOString();
  // Opening locks the output and recovers whatever a crashed earlier run left.
  const sink = await DatasetSink.open(new LocalStorage(opts.out), { split: SPLIT });
  try {
    const { manifest, card } = await build(opts, sink, startedAt);
    await sink.publish({ card, manifest });
    return { manifest, quarantineExceeded: manifest.quarantined_share > opts.maxQuarantined, outDir: opts.out };
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
}

/** Everything but the publish: writes the shards and the quarantine into the sink, and says what they are. */
async function build(opts: ResolvedConvertOptions, sink: DatasetSink, startedAt: string): Promise<{ manifest: Manifest; card: string }> {
  const sources = await openSources(opts, sink.scratch);
  const gatedRuns = opts.scorecards === undefined ? undefined : await readGatedRuns(opts.scorecards);
  const written = chooseEngine(opts, sources) === "parallel" ? await writeInParallel(opts, sink, sources, gatedRuns) : await writeWithStages(opts, sink, sources, gatedRuns);
  const { format, columns, shards, tally, quarantine } = written;
  const counts = tally.counts();
  if (!reconciles(counts)) throw new Error(`Internal error: counts do not reconcile: ${JSON.stringify(counts)}`);
  const card = datasetCard({ format, columns, shards, splitName: SPLIT });
  const manifest: Manifest = {
    evalshard_version: EVALSHARD_VERSION,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    format: { name: format.name, version_field: format.versionField, version: format.version },
    output: { to: opts.to, compression: opts.compression, layout: "huggingface", split: SPLIT, engine: written.engine },
    ...counts,
    shards,
    inputs: await Promise.all(sources.map((s) => s.info())),
    quarantine: quarantine.entries === 0 ? null : { path: quarantine.path, entries: quarantine.entries },
    options: {
      filters: filterSettings(opts.filters),
      scorecards: opts.scorecards === undefined || gatedRuns === undefined ? null : { path: opts.scorecards, gated_runs: gatedRuns.size },
      shard_rows: opts.shardRows,
      shard_bytes: opts.shardBytes,
      max_line_bytes: opts.maxLineBytes,
      max_quarantined: opts.maxQuarantined,
      accept_later_minor: opts.acceptLaterMinor,
    },
    untrusted: written.policy.summary,
    quarantined_share: tally.quarantinedShare(),
    warnings: filterWarnings(opts.filters, gatedRuns),
  };
  return { manifest, card };
}

/** The parallel engine runs Parquet with a codec it encodes, from inputs it can read as bytes. */
function chooseEngine(opts: ResolvedConvertOptions, sources: readonly LineSource[]): "parallel" | "stages" {
  if (opts.engine === "stages") return "stages";
  const unreadable = sources.find((s) => s.bytes === undefined);
  const why = parallelOutputRefusal(opts.to, opts.compression) ?? (unreadable === undefined ? null : `input ${JSON.stringify(unreadable.name)} cannot be read as bytes`);
  if (why === null) return "parallel";
  if (opts.engine === "parallel") throw new ConfigError(`The parallel engine cannot run this conversion: ${why}; use --engine stages or auto`);
  return "stages";
}

/** The library's stages, one record at a time: reads the inputs twice (the first read settles dedup). */
async function writeWithStages(opts: ResolvedConvertOptions, sink: DatasetSink, sources: LineSource[], gatedRuns: ReadonlySet<string> | undefined): Promise<Written> {
  // Loaded here, not at start-up: they bring zod and the shard writers, which the parallel engine's main thread does without.
  const [{ planPipeline, runPipeline }, { formatByName }, { shardFormatFor }] = await Promise.all([
    import("./pipeline.js"),
    import("./formats/index.js"),
    import("./sinks/shard-format-for.js"),
  ]);
  const pipelineOptions: PipelineOptions = {
    ...(opts.format === undefined ? {} : { format: formatByName(opts.format) }),
    acceptLaterMinor: opts.acceptLaterMinor,
    read: { maxLineBytes: opts.maxLineBytes },
    filters: opts.filters,
    ...(gatedRuns === undefined ? {} : { gatedRuns }),
    untrusted: opts.untrusted,
  };
  const plan = await planPipeline(sources, pipelineOptions);
  const shardFormat = shardFormatFor(opts.to, opts.compression);
  const writer = sink.records(shardFormat, plan.columns, { maxRows: opts.shardRows, maxBytes: opts.shardBytes });
  const quarantine = sink.quarantine(plan.format.name);
  const tally = new Tally();
  try {
    for await (const item of runPipeline(sources, plan, pipelineOptions)) {
      tally.add(item);
      if (item.kind === "kept") await writer.write(item.value.record, item.value.bytes);
      else if (item.kind === "quarantined") await quarantine.write(item);
    }
    const shards = await writer.finish();
    return { engine: "stages", format: plan.format, policy: plan.policy, columns: plan.columns, shards, tally, quarantine };
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    await quarantine.close();
    await shardFormat.dispose();
  }
}

/** Worker threads over one read of the inputs (src/parallel). */
async function writeInParallel(opts: ResolvedConvertOptions, sink: DatasetSink, sources: LineSource[], gatedRuns: ReadonlySet<string> | undefined): Promise<Written> {
  const read = { maxLineBytes: opts.maxLineBytes };
  const forced = opts.format !== undefined;
  const format = await loadFormatInfo(opts.format === undefined ? await detectInputFormat(sources, read) : formatName(opts.format));
  const policy = resolveUntrustedPolicy(format, opts.untrusted);
  const columns = outputColumns(format, policy);
  const quarantine = sink.quarantine(format.name);
  const plan = columnPlan(columns);
  try {
    const { shards, tally } = await convertInParallel({
      sources,
      shards: () => sink.rowGroups(plan, `evalshard version ${EVALSHARD_VERSION}`),
      plan,
      worker: {
        format: format.name,
        forced,
        acceptLaterMinor: opts.acceptLaterMinor,
        untrusted: opts.untrusted,
        filters: opts.filters,
        gatedRuns: gatedRuns === undefined ? null : [...gatedRuns],
        codec: opts.compression as "zstd" | "gzip" | "none",
        maxLineBytes: opts.maxLineBytes,
        columns,
        schema: parserSchemaFor(format, policy),
      },
      workers: opts.workers,
      read,
      shardRows: opts.shardRows,
      shardBytes: opts.shardBytes,
      quarantine,
    });
    return { engine: "parallel", format, policy, columns, shards, tally, quarantine };
  } finally {
    await quarantine.close();
  }
}

async function openSources(opts: ResolvedConvertOptions, dir: string): Promise<LineSource[]> {
  const options = { spoolDir: dir, ...(opts.stdin === undefined ? {} : { stdin: opts.stdin }) };
  if (opts.inputs.every((i) => typeof i === "string")) return expandInputs(opts.inputs as string[], options);
  // Ready sources stand where they were given, among expanded paths.
  const groups = await Promise.all(opts.inputs.map((i) => (typeof i === "string" ? expandInputs([i], options) : [i])));
  return groups.flat();
}
