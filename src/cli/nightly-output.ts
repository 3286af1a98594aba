import type { SourceEnvironment } from "../jobs/nightly/open-source.js";
import type { NightlyResult } from "../jobs/nightly/run-nightly.js";
import { createProgress } from "./progress.js";
import { formatReasons } from "./shared-flags.js";
import { EXIT } from "./exit-codes.js";

/** The process environment, with progress on stderr. */
export function nightlyEnvironment(pipeline: string): SourceEnvironment {
  const progress = createProgress(pipeline);
  return {
    env: process.env,
    onPullEvent: (e) => progress.pullEvent(e),
    onPhase: (e) => {
      progress.phase(e);
      if (e.phase === "published") progress.end();
    },
  };
}

/** Prints a night's outcome (a JSON line when asked or when stdout is not a terminal) and picks the exit code. */
export function reportNight(result: NightlyResult, json: boolean): number {
  const m = result.manifest;
  const summary = {
    event: "night_finished",
    pipeline: m.pipeline,
    out: result.outDir,
    changed: result.changed,
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
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } else {
    process.stdout.write(
      [
        `${m.pipeline}: ${result.changed ? "published" : "unchanged"} ${result.outDir}`,
        `  records in ${m.records_in}, out ${m.records_out}; added ${m.night.added}, replaced ${m.night.replaced}, removed ${m.night.removed}, unchanged ${m.night.unchanged}`,
        `  dropped: ${formatReasons(m.dropped)}; quarantined: ${formatReasons(m.quarantined)}; stream errors ${m.stream_errors}; deferred runs ${summary.deferred}`,
      ].join("\n") + "\n",
    );
  }
  if (result.quarantineExceeded) {
    process.stderr.write(`evalshard: ${(m.quarantined_share * 100).toFixed(2)}% of records were quarantined; see ${m.quarantine?.path ?? "_quarantine/"}\n`);
    return EXIT.quarantineExceeded;
  }
  return EXIT.ok;
}
