import type { SourceEnvironment } from "../jobs/nightly/open-source.js";
import type { NightlyResult } from "../jobs/nightly/run-nightly.js";
import type { PipelineSpec } from "../pipeline-file/pipeline-spec.js";
import { applyHeapGrowingPercent } from "./heap-growing-percent.js";
import { leaveNothingCreated } from "./leave-nothing-created.js";
import { createProgress } from "./progress.js";
import { formatReasons, printWarnings } from "./shared-flags.js";
import { viewLosses, viewLossesLine } from "../views/view-losses.js";
import { reportDecision } from "./run-action.js";

/** The process environment, with progress on stderr; `end` clears a terminal's bar (so an error starts its line). */
export function nightlyEnvironment(pipeline: string): SourceEnvironment & { end(): void } {
  const progress = createProgress(pipeline);
  return {
    end: () => progress.end(),
    env: process.env,
    onPullEvent: (e) => progress.pullEvent(e),
    onPhase: (e) => {
      progress.phase(e);
      if (e.phase === "published" || e.phase === "dry_run") progress.end();
    },
  };
}

/**
 * One night of `pull` or `run` (their flags as given), progress on stderr; a failed or dry night leaves no folder
 * it created. `--workers` is how it runs, not what it makes, so never the pipeline's (its digest would change).
 */
export async function launchNight(spec: PipelineSpec, flags: { dryRun?: unknown; force?: unknown; workers?: unknown; commit?: string | undefined }): Promise<NightlyResult> {
  const { runNightly, outputDirOf } = await import("../jobs/nightly/run-nightly.js");
  const dryRun = flags.dryRun === true;
  applyHeapGrowingPercent(); // before the night allocates: the CLI's process is the job's
  const environment = nightlyEnvironment(spec.name);
  const executor = flags.workers === undefined ? {} : { workers: flags.workers as number };
  const options = { dryRun, force: flags.force === true, ...executor, ...(flags.commit === undefined ? {} : { commit: flags.commit as "last" }) };
  return leaveNothingCreated(outputDirOf(spec), () => runNightly(spec, environment, options), { always: dryRun }).finally(() => environment.end());
}

/** Prints a night's outcome (a JSON line when asked or when stdout is not a terminal) and picks the exit code. */
export function reportNight(result: NightlyResult, json: boolean): number {
  const m = result.manifest;
  const dry = result.dryRun;
  const losses = m.view === undefined ? undefined : viewLosses(m.view);
  const summary = {
    event: dry === undefined ? "night_finished" : "night_dry_run",
    pipeline: m.pipeline,
    out: result.outDir,
    changed: result.changed,
    ...(dry === undefined ? {} : { would_publish: dry.wouldPublish }),
    records_in: m.records_in,
    records_out: m.records_out,
    added: m.night.added,
    replaced: m.night.replaced,
    removed: m.night.removed,
    unchanged: m.night.unchanged,
    dropped: m.dropped,
    quarantined: m.quarantined,
    stream_errors: m.stream_errors,
    deferred: m.pull?.deferred.length ?? 0,
    ...(losses === undefined ? {} : { view: losses }),
    warnings: m.warnings,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } else {
    process.stdout.write(
      [
        dry === undefined
          ? `${m.pipeline}: ${result.changed ? "published" : "unchanged"} ${result.outDir}`
          : `${m.pipeline}: dry run, nothing published; a night would ${dry.wouldPublish ? "publish" : "leave unchanged"} ${result.outDir}`,
        `  records in ${m.records_in}, out ${m.records_out}; added ${m.night.added}, replaced ${m.night.replaced}, removed ${m.night.removed}, unchanged ${m.night.unchanged}`,
        `  dropped: ${formatReasons(m.dropped)}; quarantined: ${formatReasons(m.quarantined)}; stream errors ${m.stream_errors}; deferred runs ${summary.deferred}`,
        ...(losses === undefined ? [] : [`  ${viewLossesLine(losses)}`]),
      ].join("\n") + "\n",
    );
  }
  printWarnings(m.warnings);
  return reportDecision(result.decision, result.outDir);
}
