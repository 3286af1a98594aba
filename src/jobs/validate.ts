import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Counts } from "../core/tally.js";
import { decidePublish, type PublishDecision } from "../output/publish-guard.js";
import { runEngine } from "../engines/parallel/index.js";
import type { ValidateOptions } from "../plan/options.js";
import { resolvePlan } from "../plan/resolve-plan.js";
import type { ViewManifest } from "../views/view-manifest.js";
import { FirstBadSink } from "./first-bad-sink.js";
import { openSources } from "./open-sources.js";
import { selectionWarnings } from "./scorecards-summary.js";
import type { RunPlan } from "../plan/run-plan.js";

/** Options of `validateInputs`, from the option table (src/plan/options.ts); inputs are paths or "-" here. */
export type ValidateInputsOptions = ValidateOptions & { readonly inputs: readonly string[] };

export interface ValidateInputsResult extends Counts {
  readonly format: string;
  /** The engine that ran the checks, as convert's manifest names it (`output.engine`): "parallel", the one engine. */
  readonly engine: string;
  readonly quarantined_share: number;
  readonly first_bad: readonly { source: string; line: number; offset: number; reason: string; detail: string }[];
  /** What convert's manifest would warn about: no scorecards to gate with, scorecards quarantined (issue 20). */
  readonly warnings: readonly string[];
  /** Which seats the selection keeps (issue 19); its drops are counted in `dropped` by rule. */
  readonly selection: RunPlan["selection"];
  /** The publish guards' verdict convert would give on these inputs (issue 20): the guards tripped, if any. */
  readonly guards: { readonly tripped: PublishDecision["tripped"]; readonly would_publish: boolean };
  /** With `view`: what the view would produce (rows, steps or pairs left out, text audit), as convert's manifest says. */
  readonly view?: ViewManifest;
}

/** The checks of `convert` without writing anything: counts by reason and the first offending lines. */
export async function validateInputs(options: ValidateInputsOptions): Promise<ValidateInputsResult> {
  const plan = resolvePlan("validate", options);
  const spoolDir = await mkdtemp(join(tmpdir(), "evalshard-validate-"));
  try {
    const sources = await openSources(plan, spoolDir);
    const sink = new FirstBadSink(plan.firstBad, spoolDir);
    const run = await runEngine(plan, sources, sink);
    const counts = run.tally.counts();
    // convert's own verdict, without --publish-anyway: validate says whether the data would pass.
    const decision = decidePublish({ ...plan.guards, publishAnyway: false }, { ...counts, quarantined_share: run.tally.quarantinedShare() });
    return {
      format: `${run.format.name} ${run.format.version}`,
      engine: run.engine,
      ...counts,
      quarantined_share: run.tally.quarantinedShare(),
      first_bad: sink.firstBad.map((q) => ({ ...q.provenance, reason: q.reason, detail: q.detail })),
      warnings: selectionWarnings(plan, sources.scorecards),
      selection: plan.selection,
      guards: { tripped: decision.tripped, would_publish: decision.published },
      ...(run.view === undefined ? {} : { view: run.view.manifest }),
    };
  } finally {
    await rm(spoolDir, { recursive: true, force: true });
  }
}
