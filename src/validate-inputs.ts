import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatByName } from "./formats/index.js";
import { planPipeline, runPipeline } from "./pipeline.js";
import type { PipelineOptions } from "./pipeline.js";
import { expandInputs } from "./sources/expand-inputs.js";
import { readGatedRuns } from "./sources/scorecard-file.js";
import type { ValidateOptions } from "./plan/options.js";
import { resolvePlan } from "./plan/resolve-plan.js";
import type { Counts } from "./core/tally.js";
import { Tally } from "./core/tally.js";
import type { Quarantined } from "./core/flow.js";
import { openViewRun } from "./views/open-view-run.js";
import type { ViewManifest } from "./views/view-manifest.js";

/** Options of `validateInputs`, from the option table (src/plan/options.ts); inputs are paths or "-" here. */
export type ValidateInputsOptions = ValidateOptions & { readonly inputs: readonly string[] };

export interface ValidateInputsResult extends Counts {
  readonly format: string;
  readonly quarantined_share: number;
  readonly first_bad: readonly { source: string; line: number; offset: number; reason: string; detail: string }[];
  /** With `view`: what the view would produce (rows, steps or pairs left out, text audit), as convert's manifest says. */
  readonly view?: ViewManifest;
}

/** The checks of `convert` without writing anything: counts by reason and the first offending lines. */
export async function validateInputs(options: ValidateInputsOptions): Promise<ValidateInputsResult> {
  const run = resolvePlan("validate", options);
  const spoolDir = await mkdtemp(join(tmpdir(), "evalshard-validate-"));
  try {
    const sources = await expandInputs(options.inputs, { spoolDir, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) });
    const scorecards = run.source.kind === "files" ? run.source.scorecards : undefined;
    const gatedRuns = scorecards === undefined ? undefined : await readGatedRuns(scorecards);
    const pipelineOptions: PipelineOptions = {
      ...("forced" in run.format ? { format: formatByName(run.format.forced) } : {}),
      acceptLaterMinor: run.acceptLaterMinor,
      read: { maxLineBytes: run.guards.maxLineBytes },
      filters: run.filters,
      ...(gatedRuns === undefined ? {} : { gatedRuns }),
      untrusted: run.untrusted,
      ...(run.view === undefined ? {} : { strip: false as const }), // issue 18
    };
    const plan = await planPipeline(sources, pipelineOptions);
    // Issue 18: what a view would make of the kept records (its rows are built and counted, not written).
    const view = run.view === undefined ? null : await openViewRun(run.view, plan.format.name, { scratch: spoolDir, read: pipelineOptions.read ?? {}, acceptLaterMinor: run.acceptLaterMinor });
    const tally = new Tally();
    const firstBad: Quarantined[] = [];
    const items = runPipeline(sources, plan, pipelineOptions);
    for await (const item of view === null ? items : view.stage(items)) {
      tally.add(item);
      if (item.kind === "quarantined" && firstBad.length < run.firstBad) firstBad.push(item);
    }
    return {
      format: `${plan.format.name} ${plan.format.version}`,
      ...tally.counts(),
      quarantined_share: tally.quarantinedShare(),
      first_bad: firstBad.map((q) => ({ ...q.provenance, reason: q.reason, detail: q.detail })),
      ...(view === null ? {} : { view: view.manifest() }),
    };
  } finally {
    await rm(spoolDir, { recursive: true, force: true });
  }
}
