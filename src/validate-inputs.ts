import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { FormatName } from "./formats/format.js";
import { formatByName } from "./formats/index.js";
import { planPipeline, runPipeline } from "./pipeline.js";
import type { PipelineOptions } from "./pipeline.js";
import type { FilterRule } from "./reasons.js";
import { expandInputs } from "./sources/expand-inputs.js";
import { readGatedRuns } from "./sources/scorecard-file.js";
import { DEFAULTS } from "./convert-options.js";
import type { Counts } from "./tally.js";
import { Tally } from "./tally.js";
import type { Quarantined } from "./flow.js";

export interface ValidateInputsOptions {
  readonly inputs: readonly string[];
  readonly format?: FormatName;
  readonly scorecards?: string;
  readonly filters?: Partial<Record<FilterRule, boolean>>;
  readonly untrusted?: Readonly<Record<string, string>>;
  readonly maxLineBytes?: number;
  readonly acceptLaterMinor?: boolean;
  /** How many offending lines to report. Default 10. */
  readonly firstBad?: number;
  readonly stdin?: Readable;
}

export interface ValidateInputsResult extends Counts {
  readonly format: string;
  readonly quarantined_share: number;
  readonly first_bad: readonly { source: string; line: number; offset: number; reason: string; detail: string }[];
}

/** The checks of `convert` without writing anything: counts by reason and the first offending lines. */
export async function validateInputs(options: ValidateInputsOptions): Promise<ValidateInputsResult> {
  const spoolDir = await mkdtemp(join(tmpdir(), "evalshard-validate-"));
  try {
    const sources = await expandInputs(options.inputs, { spoolDir, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) });
    const gatedRuns = options.scorecards === undefined ? undefined : await readGatedRuns(options.scorecards);
    const pipelineOptions: PipelineOptions = {
      ...(options.format === undefined ? {} : { format: formatByName(options.format) }),
      acceptLaterMinor: options.acceptLaterMinor ?? false,
      read: { maxLineBytes: options.maxLineBytes ?? DEFAULTS.maxLineBytes },
      ...(options.filters === undefined ? {} : { filters: options.filters }),
      ...(gatedRuns === undefined ? {} : { gatedRuns }),
      ...(options.untrusted === undefined ? {} : { untrusted: options.untrusted }),
    };
    const plan = await planPipeline(sources, pipelineOptions);
    const tally = new Tally();
    const firstBad: Quarantined[] = [];
    for await (const item of runPipeline(sources, plan, pipelineOptions)) {
      tally.add(item);
      if (item.kind === "quarantined" && firstBad.length < (options.firstBad ?? 10)) firstBad.push(item);
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
