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

/** Options of `validateInputs`, from the option table (src/plan/options.ts); inputs are paths or "-" here. */
export type ValidateInputsOptions = ValidateOptions & { readonly inputs: readonly string[] };

export interface ValidateInputsResult extends Counts {
  readonly format: string;
  readonly quarantined_share: number;
  readonly first_bad: readonly { source: string; line: number; offset: number; reason: string; detail: string }[];
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
    };
    const plan = await planPipeline(sources, pipelineOptions);
    const tally = new Tally();
    const firstBad: Quarantined[] = [];
    for await (const item of runPipeline(sources, plan, pipelineOptions)) {
      tally.add(item);
      if (item.kind === "quarantined" && firstBad.length < run.firstBad) firstBad.push(item);
    }
    return {
      format: `${plan.format.name} ${plan.format.version}`,
      ...tally.counts(),
      quarantined_share: tally.quarantinedShare(),
      first_bad: firstBad.map((q) => ({ ...q.provenance, reason: q.reason, detail: q.detail })),
    };
  } finally {
    await rm(spoolDir, { recursive: true, force: true });
  }
}
