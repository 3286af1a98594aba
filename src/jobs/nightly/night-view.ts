import type { SnapshotRecord } from "../../dataset/index.js";
import type { FormatName } from "../../formats/format.js";
import type { RunPlan } from "../../plan/run-plan.js";
import type { ReadOptions } from "../../sources/line-source.js";
import { openViewRun } from "../../views/open-view-run.js";
import type { ViewRun } from "../../views/open-view-run.js";
import type { ViewedRecord } from "../../views/view-records.js";
import { VIEW_TRAITS } from "../../views/view-traits.js";

/**
 * The plan's view (issue 18), opened for a night whose format is settled; null without one. `context`: the
 * RL records a DPO view joins against, as the pull fetched them (a pipeline file names none).
 */
export async function openNightView(run: RunPlan, format: FormatName, o: { readonly scratch: string; readonly read: ReadOptions; readonly context: { readonly path: string; readonly name: string } | null }): Promise<ViewRun | null> {
  if (run.view === undefined) return null;
  const request = o.context === null ? run.view : { ...run.view, context: [o.context.path], contextNames: [o.context.name] };
  return openViewRun(request, format, { scratch: o.scratch, read: o.read, acceptLaterMinor: run.acceptLaterMinor, inputs: "this pipeline" });
}

/** Whether the plan's view joins against RL records, which the pull must then fetch too. */
export function viewNeedsContext(run: RunPlan): boolean {
  return run.view !== undefined && VIEW_TRAITS[run.view.name].needsContext;
}

/**
 * A viewed record's rows as snapshot records. The incremental dataset keys records; a view row is keyed by
 * its source record's key plus its place among that record's rows, with the record's scorecard version. So a
 * rescored run replaces its rows (a row it no longer has goes), a flagged or vanished run's rows all go, and
 * each row is in the dataset exactly once, as the snapshot is complete every night.
 */
export function snapshotRows(viewed: ViewedRecord): SnapshotRecord[] {
  const { facts } = viewed.record;
  return viewed.rows.map((row, i) => ({ key: `${facts.key}#${String(i).padStart(5, "0")}`, version: facts.scorecardVersion, record: row }));
}
