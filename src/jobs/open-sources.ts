import type { RunSources } from "../engines/engine.js";
import type { RunPlan } from "../plan/run-plan.js";
import { expandInputs } from "../sources/expand-inputs.js";
import type { LineSource } from "../sources/line-source.js";
import { withSpooledBytes } from "../sources/spooled-lines.js";
import type { Scorecards } from "../stages/read-scorecards.js";
import { readSuitesInputs, type SuitesInputs } from "./suites-inputs.js";

/** A job's sources, and the scorecards read (for the manifest's count of quarantined cards). */
export interface OpenedSources extends RunSources {
  readonly scorecards: Scorecards | undefined;
  /** `--suites FILE` read (issue 35), for the manifest's decontamination section. */
  readonly decontamination: SuitesInputs | undefined;
}

/** The plan's input files (and ready sources, kept where they were given), and its scorecards. */
export async function openSources(plan: RunPlan, spoolDir: string): Promise<OpenedSources> {
  if (plan.source.kind !== "files") throw new Error("Internal error: this job reads files");
  const { inputs, stdin, scorecards: path } = plan.source;
  const options = { spoolDir, ...(stdin === undefined ? {} : { stdin }) };
  let lines: LineSource[];
  if (inputs.every((i) => typeof i === "string")) lines = await expandInputs(inputs as string[], options);
  // A caller's source without bytes is spooled for the units, which read bytes (its lines keep its name and numbers).
  else lines = (await Promise.all(inputs.map((i) => (typeof i === "string" ? expandInputs([i], options) : [withSpooledBytes(i, spoolDir, { maxLineBytes: plan.guards.maxLineBytes })])))).flat();
  // Loaded only when asked: the scorecard schema brings zod, which the parallel engine's main thread does without.
  const scorecards = path === undefined ? undefined : await (await import("../stages/read-scorecards.js")).readScorecardFile(path);
  const suites = plan.source.suites === undefined ? undefined : await readSuitesInputs(plan.source.suites, plan.source.runManifests);
  return { lines, gates: () => scorecards?.gates, scores: () => scorecards?.book, scorecards, ...(suites === undefined ? {} : { suites: () => suites.book }), decontamination: suites };
}
