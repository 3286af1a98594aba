import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { writeSnapshot } from "../../dataset/index.js";
import type { SnapshotRecord, SnapshotResult } from "../../dataset/index.js";
import { formatByName } from "../../formats/index.js";
import { reconciles } from "../../output/manifest.js";
import type { PipelineSpec } from "../../pipeline-file/pipeline-spec.js";
import { planOfSpec } from "../../pipeline-file/plan-of-spec.js";
import { planPipeline, runPipeline } from "../../engines/stages/pipeline.js";
import type { PipelineOptions } from "../../engines/stages/pipeline.js";
import { filterSettings, filterWarnings } from "../../stages/filter.js";
import { copyFile } from "../../output/copy-file.js";
import { datasetCard } from "../../output/dataset-card.js";
import { LocalFiles } from "../../output/local-files.js";
import { LocalStorage } from "../../output/local-storage.js";
import { QuarantineWriter } from "../../output/quarantine-writer.js";
import { writeText } from "../../output/write-text.js";
import { shardFormatFor } from "../../sinks/shard-format-for.js";
import { Tally } from "../../core/tally.js";
import { EVALSHARD_VERSION } from "../../core/version.js";
import type { NightlyManifest } from "./nightly-manifest.js";
import { openSource, parsePartition } from "./open-source.js";
import { formatScoreCache, readScoreCache, SCORE_CACHE_DIR, SCORE_CACHE_FILE } from "./score-cache-file.js";
import type { SourceEnvironment } from "./open-source.js";
import { openNightView, snapshotRows, viewNeedsContext } from "./night-view.js";
import type { HttpSource } from "../../pull/index.js";
import { RecordTextAudit } from "../../views/record-text-audit.js";

const SPOOL_PREFIX = ".evalshard-spool-";

export interface NightlyResult {
  /** The manifest of this night (published only when the dataset changed). */
  readonly manifest: NightlyManifest;
  readonly changed: boolean;
  readonly quarantineExceeded: boolean;
  readonly outDir: string;
}

/**
 * One night of a pipeline: fetch (or read) the complete current export, run it through the stages, and make
 * the dataset equal to it, rewriting only the shards whose records changed. The output is locked for the whole
 * job, so a second job on it fails at once and changes nothing; a crash at any point leaves the last
 * committed dataset, which the next night continues from.
 */
export async function runNightly(spec: PipelineSpec, environment: SourceEnvironment = { env: process.env }): Promise<NightlyResult> {
  const startedAt = new Date().toISOString();
  // The plan first: a bad option (an s3:// output, say) must fail before anything is created on disk.
  const run = planOfSpec(spec);
  const outDir = outputDirOf(spec);
  await mkdir(outDir, { recursive: true });
  const storage = new LocalStorage(outDir);
  const lock = await storage.lock();
  // Holding the lock, any spool left here is a crashed job's: clear it. (Not named like a staging
  // directory: the snapshot's recovery would delete this job's own spool.)
  for (const name of await readdir(outDir)) if (name.startsWith(SPOOL_PREFIX)) await rm(join(outDir, name), { recursive: true, force: true });
  const spoolDir = await mkdtemp(join(outDir, SPOOL_PREFIX));
  const shardFormat = shardFormatFor(run.shards.to, run.shards.compression);
  try {
    const format = "forced" in run.format ? formatByName(run.format.forced) : undefined;
    // Saved with the last published dataset; a night that publishes nothing leaves it as it was, and the
    // next night requests the scorecards it lacks again.
    const scoreCache = spec.source.kind === "http" ? await readScoreCache(join(outDir, SCORE_CACHE_DIR, SCORE_CACHE_FILE)) : undefined;
    const opened = await openSource(spec, spoolDir, environment, scoreCache, { rlContext: viewNeedsContext(run) });
    const options: PipelineOptions = {
      ...(format === undefined ? {} : { format }),
      acceptLaterMinor: run.acceptLaterMinor,
      read: { maxLineBytes: run.guards.maxLineBytes },
      filters: run.filters,
      untrusted: run.untrusted,
      ...(run.view === undefined ? {} : { strip: false as const }), // issue 18: a view emits its own sanitized texts
    };
    const plan = await planPipeline(opened.sources, options);
    const view = await openNightView(run, plan.format.name, { scratch: spoolDir, read: options.read ?? {}, context: contextOf(opened.http) }); // issue 18
    const textAudit = view === null ? new RecordTextAudit(plan.format) : null; // issue 18: plain outputs' texts
    environment.onPhase?.({ phase: "fetched", keys: plan.index.size, format: plan.format.name });
    const gatedRuns = opened.gatedRuns();
    const tally = new Tally();
    const quarantinePath = `_quarantine/${plan.format.name}.ndjson`;
    // Spooled locally: the staging opens later, once the records flow (see writeSnapshot).
    const spool = new LocalFiles(spoolDir);
    const quarantine = new QuarantineWriter(spool, quarantinePath);
    async function* kept(): AsyncIterable<SnapshotRecord> {
      const items = runPipeline(opened.sources, plan, { ...options, ...(gatedRuns === undefined ? {} : { gatedRuns }) });
      for await (const item of view === null ? items : view.stage(items)) {
        tally.add(item);
        if (item.kind === "kept") {
          const value = item.value;
          if ("rows" in value) {
            yield* snapshotRows(value); // issue 18: a view's rows
          } else {
            textAudit?.add(value.record); // issue 18
            yield { key: value.facts.key, version: value.facts.scorecardVersion, record: value.record };
          }
        } else if (item.kind === "quarantined") await quarantine.write(item);
      }
      await quarantine.close();
      const counts = tally.counts();
      environment.onPhase?.({ phase: "converted", records_in: counts.records_in, records_out: counts.records_out });
    }
    let manifest: NightlyManifest | undefined;
    const buildManifest = async (night: SnapshotResult): Promise<NightlyManifest> => {
      const counts = tally.counts();
      if (!reconciles(counts)) throw new Error(`Internal error: counts do not reconcile: ${JSON.stringify(counts)}`);
      return {
        evalshard_version: EVALSHARD_VERSION,
        pipeline: spec.name,
        started_at: startedAt,
        finished_at: new Date().toISOString(),
        format: { name: plan.format.name, version_field: plan.format.versionField, version: plan.format.version },
        output: { to: spec.output.to, compression: spec.output.compression, layout: "huggingface-buckets", buckets: spec.output.buckets },
        ...counts,
        night: { added: night.added, replaced: night.replaced, removed: night.removed, unchanged: night.unchanged, buckets_rewritten: night.bucketsRewritten },
        shards: night.shards,
        inputs: await Promise.all(opened.sources.map((s) => s.info())),
        pull: opened.http?.report() ?? null,
        quarantine: quarantine.entries === 0 ? null : { path: quarantinePath, entries: quarantine.entries },
        filters: filterSettings(spec.filters),
        untrusted: plan.policy.summary,
        quarantined_share: tally.quarantinedShare(),
        warnings: filterWarnings(spec.filters, gatedRuns),
        ...(textAudit === null ? {} : { text_audit: textAudit.summary() }),
        ...(view === null ? {} : { view: view.manifest() }),
      };
    };
    const night = await writeSnapshot(kept(), {
      outDir,
      storage,
      format: plan.format,
      columns: view?.columns ?? plan.columns,
      shardFormat,
      buckets: spec.output.buckets,
      locked: true,
      stageExtras: async (result, staging) => {
        manifest = await buildManifest(result);
        if (quarantine.entries > 0) await copyFile(spool, staging, quarantinePath);
        await writeText(staging, "README.md", datasetCard({ format: plan.format, columns: view?.columns ?? plan.columns, shards: result.shards, ...(view === null ? {} : { view: view.card() }) }));
        await writeText(staging, "manifest.json", `${JSON.stringify(manifest, null, 2)}\n`);
        if (opened.http === null) return ["_quarantine/", "README.md", "manifest.json"];
        await writeText(staging, `${SCORE_CACHE_DIR}/${SCORE_CACHE_FILE}`, formatScoreCache(opened.http.scoreCacheOut()));
        return ["_quarantine/", "README.md", "manifest.json", SCORE_CACHE_DIR];
      },
    });
    manifest ??= await buildManifest(night);
    environment.onPhase?.({ phase: "published", changed: night.changed, added: night.added, replaced: night.replaced, removed: night.removed });
    return { manifest, changed: night.changed, quarantineExceeded: manifest.quarantined_share > run.guards.maxQuarantined, outDir };
  } finally {
    await shardFormat.dispose();
    await rm(spoolDir, { recursive: true, force: true });
    await lock.release();
  }
}

/** A partition job writes its own dataset under the pipeline's output: `part-<k>-of-<N>`. */
export function outputDirOf(spec: PipelineSpec): string {
  if (spec.source.kind !== "http" || spec.source.partition === undefined) return spec.output.dir;
  const { index, count } = parsePartition(spec.source.partition);
  return join(spec.output.dir, `part-${index}-of-${count}`);
}

/** Issue 18: the paired runs' RL records a DPO pull fetched for its view, named for the manifest. */
function contextOf(http: HttpSource | null): { path: string; name: string } | null {
  const path = http?.contextFile() ?? null;
  return http === null || path === null ? null : { path, name: `RL records of the paired runs, from ${http.name}` };
}
