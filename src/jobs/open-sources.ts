import type { RunSources } from "../engines/engine.js";
import type { RunPlan } from "../plan/run-plan.js";
import { expandInputs } from "../sources/expand-inputs.js";
import type { LineSource } from "../sources/line-source.js";
import { readGatedRuns } from "../sources/scorecard-file.js";

/** The plan's input files (and ready sources, kept where they were given), and its scorecards' gated runs. */
export async function openSources(plan: RunPlan, spoolDir: string): Promise<RunSources> {
  if (plan.source.kind !== "files") throw new Error("Internal error: this job reads files");
  const { inputs, stdin, scorecards } = plan.source;
  const options = { spoolDir, ...(stdin === undefined ? {} : { stdin }) };
  let lines: LineSource[];
  if (inputs.every((i) => typeof i === "string")) lines = await expandInputs(inputs as string[], options);
  else lines = (await Promise.all(inputs.map((i) => (typeof i === "string" ? expandInputs([i], options) : [i])))).flat();
  const gatedRuns = scorecards === undefined ? undefined : await readGatedRuns(scorecards);
  return { lines, gatedRuns: () => gatedRuns };
}
