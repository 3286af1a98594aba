import { ConfigError } from "../core/errors.js";
import type { Stage } from "../core/flow.js";
import type { SnapshotRecord } from "../dataset/index.js";
import type { FormatName } from "../formats/format.js";
import type { ValidRecord } from "../formats/valid-record.js";
import type { RunPlan } from "../plan/run-plan.js";
import type { Field } from "../schema/column-type.js";
import type { ReadOptions } from "../sources/line-source.js";
import { openView } from "../views/open-view.js";
import type { OpenedView } from "../views/open-view.js";
import { viewCard } from "../views/view-card.js";
import { viewManifest } from "../views/view-manifest.js";
import type { ViewManifest } from "../views/view-manifest.js";
import { viewRecords } from "../views/view-records.js";
import type { ViewedRecord } from "../views/view-records.js";
import { ViewTally } from "../views/view-tally.js";

/** A training view on a nightly dataset (issue 18): the stage, the columns, and what the manifest and card say. */
export interface NightView {
  readonly columns: readonly Field[];
  readonly stage: Stage<ValidRecord, ViewedRecord>;
  manifest(): ViewManifest;
  card(): { readonly name: string; readonly lines: readonly string[] };
}

/** The plan's view, opened for a night whose format is settled; null without one. */
export async function openNightView(run: RunPlan, format: FormatName, o: { readonly scratch: string; readonly read: ReadOptions }): Promise<NightView | null> {
  if (run.view === undefined) return null;
  const opened: OpenedView = await openView(run.view, { scratch: o.scratch, read: o.read, acceptLaterMinor: run.acceptLaterMinor });
  const { view, env } = opened;
  if (view.from !== format) throw new ConfigError(`The view ${view.name} reads ${view.from} records, but this pipeline pulls ${format}`);
  const tally = new ViewTally();
  return {
    columns: view.columns,
    stage: viewRecords(view, env, tally, opened.onInjection),
    manifest: () =>
      viewManifest({ view, counts: tally.counts(), audit: env.audit.summary(), onInjection: opened.onInjection, systemPrompt: opened.systemPrompt, extraControlTokens: opened.extraControlTokens, context: opened.context }),
    card: () => ({ name: view.name, lines: viewCard({ view, counts: tally.counts(), audit: env.audit.summary(), text: "sanitize" }) }),
  };
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
