import { splitSkewWarnings } from "../../splits/split-skew-warnings.js";
import type { SnapshotResult } from "../../dataset/staged-snapshot.js";
import type { EngineRun, RunSources } from "../../engines/engine.js";
import { buildManifest } from "../../output/manifest.js";
import type { PublishDecision } from "../../output/publish-guard.js";
import type { PipelineSpec } from "../../pipeline-file/pipeline-spec.js";
import type { PullReport } from "../../pull/index.js";
import { filterSettings, filterWarnings } from "../../stages/filter.js";
import type { NightlyManifest } from "./nightly-manifest.js";
import type { DecontaminationManifest } from "../../output/decontamination.js";

/** What a night's manifest is made of. */
export interface NightFacts {
  readonly spec: PipelineSpec;
  readonly startedAt: string;
  readonly run: EngineRun;
  readonly night: SnapshotResult;
  readonly sources: RunSources;
  readonly pull: PullReport | null;
  /** The number this night publishes as. */
  readonly snapshot: number | null;
  /** The publish guards' verdict. */
  readonly publish: PublishDecision;
  /** Where the published files live relative to the root (`snapshots/<id>/` on S3); "" for a rejected night. */
  readonly base: string;
  /** Issue 35: the manifest's section, and the warning when records could not be decided. */
  readonly decontamination?: { readonly section: DecontaminationManifest; readonly warning: string | null };
}

/** A pull's cards whose gating cannot be read: their seats were dropped (issue 39); the first is named. */
function unreadableWarnings(pull: PullReport | null): string[] {
  const texts = pull?.unreadableGating ?? [];
  return texts.length === 0 ? [] : [`scorecards: ${texts.length} card(s) unreadable_gating (first: ${texts[0] as string})`];
}

/** Records decontamination could not decide were kept: the manifest (and stderr) say so. */
function decontaminationWarnings(d: NightFacts["decontamination"]): string[] {
  if (d === undefined) return [];
  const undecided = d.section.undecided_records;
  return [...(d.warning === null ? [] : [d.warning]), ...(undecided === 0 ? [] : [`decontamination: ${undecided} record(s) of runs whose scenario_version_hash is unknown were kept unchecked`])];
}

/** `manifest.json` of a nightly dataset, through the one manifest builder. */
export function nightlyManifest({ spec, startedAt, run, night, sources, pull, snapshot, publish, base, decontamination }: NightFacts): Promise<NightlyManifest> {
  const gates = sources.gates();
  const facts = { startedAt, base, format: run.format, tally: run.tally, shards: night.shards, sources: sources.lines, quarantine: run.quarantine, untrusted: run.policy.summary, warnings: [...filterWarnings(spec.filters, gates), ...unreadableWarnings(pull), ...decontaminationWarnings(decontamination), ...splitSkewWarnings(run.split)] };
  return buildManifest<Omit<NightlyManifest, keyof Awaited<ReturnType<typeof buildManifest>>>>(facts, {
    pipeline: spec.name,
    snapshot,
    output: { to: spec.output.to, compression: spec.output.compression, layout: "huggingface-buckets", buckets: spec.output.buckets },
    night: { added: night.added, replaced: night.replaced, removed: night.removed, unchanged: night.unchanged, buckets_rewritten: night.bucketsRewritten },
    pull,
    filters: filterSettings(spec.filters),
    gate_by: spec.gate_by,
    stream_error_runs: run.tally.streamErrorRuns(),
    publish,
    ...(run.textAudit === undefined ? {} : { text_audit: run.textAudit }),
    ...(run.view === undefined ? {} : { view: run.view.manifest }),
    ...(run.split === undefined ? {} : { split: run.split }),
    // A night's snapshot is complete (every row it holds came through tonight's engine): its stats are the dataset's.
    stats: run.stats.toManifest(),
    ...(decontamination === undefined ? {} : { decontamination: decontamination.section }),
  }) as Promise<NightlyManifest>;
}
