import { mkdir, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { ConfigError } from "./errors.js";
import { detectInputFormat } from "./detect-input-format.js";
import { datasetCard } from "./sinks/dataset-card.js";
import { loadFormatInfo } from "./fast/load-format-info.js";
import { parserSchemaFor } from "./fast/parser-schema-for.js";
import type { FormatBasics } from "./formats/format.js";
import { formatName } from "./formats/format.js";
import { convertInParallel } from "./parallel/convert-in-parallel.js";
import { columnPlan } from "./parquet/column-plan.js";
import type { Field } from "./schema/column-type.js";
import type { ShardInfo } from "./sinks/shard-writer.js";
import { outputColumns, resolveUntrustedPolicy } from "./stages/untrusted-policy.js";
import type { UntrustedPolicy } from "./stages/untrusted-policy.js";
import { parallelOutputRefusal, resolveConvertOptions } from "./convert-options.js";
import type { ConvertOptions, ResolvedConvertOptions } from "./convert-options.js";
import type { Manifest } from "./manifest.js";
import { reconciles } from "./manifest.js";
import type { PipelineOptions } from "./pipeline.js";
import { filterSettings, filterWarnings } from "./stages/filter.js";
import { QuarantineWriter } from "./sinks/quarantine-writer.js";
import { lockOutput, openStaging } from "./sinks/staging.js";
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
  await mkdir(opts.out, { recursive: true });
  const release = await lockOutput(opts.out);
  try {
    // Opening recovers whatever a crashed earlier run left, now that this job holds the lock.
    const staging = await openStaging(opts.out);
    try {
      const manifest = await build(opts, staging.dir, startedAt);
      await staging.publish(["data", "_quarantine", "README.md", "manifest.json"]);
      return { manifest, quarantineExceeded: manifest.quarantined_share > opts.maxQuarantined, outDir: opts.out };
    } catch (error) {
      await staging.abort();
      throw error;
    }
  } finally {
    await release();
  }
}

/** What either engine leaves in the staging directory, for the card and the manifest. */
interface Written {
  readonly engine: "parallel" | "stages";
  readonly format: FormatBasics;
  readonly policy: UntrustedPolicy;
  readonly columns: readonly Field[];
  readonly shards: ShardInfo[];
  readonly tally: Tally;
  readonly quarantine: QuarantineWriter;
}

/** Everything but the publish: writes the whole output into `dir`. */
async function build(opts: ResolvedConvertOptions, dir: string, startedAt: string): Promise<Manifest> {
  const sources = await openSources(opts, dir);
  const gatedRuns = opts.scorecards === undefined ? undefined : await readGatedRuns(opts.scorecards);
  const written = chooseEngine(opts, sources) === "parallel" ? await writeInParallel(opts, dir, sources, gatedRuns) : await writeWithStages(opts, dir, sources, gatedRuns);
  const { format, columns, shards, tally, quarantine } = written;
  await mkdir(join(dir, "_quarantine"), { recursive: true });
  const counts = tally.counts();
  if (!reconciles(counts)) throw new Error(`Internal error: counts do not reconcile: ${JSON.stringify(counts)}`);
  await writeFile(join(dir, "README.md"), datasetCard({ format, columns, shards, splitName: SPLIT }));
  const manifest: Manifest = {
    evalshard_version: EVALSHARD_VERSION,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    format: { name: format.name, version_field: format.versionField, version: format.version },
    output: { to: opts.to, compression: opts.compression, layout: "huggingface", split: SPLIT, engine: written.engine },
    ...counts,
    shards,
    inputs: await Promise.all(sources.map((s) => s.info())),
    quarantine: quarantine.entries === 0 ? null : { path: relative(dir, quarantine.path).split(sep).join("/"), entries: quarantine.entries },
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
  await writeFile(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
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
async function writeWithStages(opts: ResolvedConvertOptions, dir: string, sources: LineSource[], gatedRuns: ReadonlySet<string> | undefined): Promise<Written> {
  // Loaded here, not at start-up: they bring zod and the shard writers, which the parallel engine's main thread does without.
  const [{ planPipeline, runPipeline }, { formatByName }, { shardFormatFor }, { ShardedWriter }] = await Promise.all([
    import("./pipeline.js"),
    import("./formats/index.js"),
    import("./sinks/shard-format-for.js"),
    import("./sinks/sharded-writer.js"),
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
  const writer = new ShardedWriter({ dir, format: shardFormat, columns: plan.columns, split: SPLIT, maxRows: opts.shardRows, maxBytes: opts.shardBytes });
  const quarantine = new QuarantineWriter(join(dir, `_quarantine/${plan.format.name}.ndjson`));
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
async function writeInParallel(opts: ResolvedConvertOptions, dir: string, sources: LineSource[], gatedRuns: ReadonlySet<string> | undefined): Promise<Written> {
  const read = { maxLineBytes: opts.maxLineBytes };
  const forced = opts.format !== undefined;
  const format = await loadFormatInfo(opts.format === undefined ? await detectInputFormat(sources, read) : formatName(opts.format));
  const policy = resolveUntrustedPolicy(format, opts.untrusted);
  const columns = outputColumns(format, policy);
  const quarantine = new QuarantineWriter(join(dir, `_quarantine/${format.name}.ndjson`));
  try {
    const { shards, tally } = await convertInParallel({
      sources,
      dir,
      split: SPLIT,
      plan: columnPlan(columns),
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
      createdBy: `evalshard version ${EVALSHARD_VERSION}`,
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
