import { ConfigError } from "../core/errors.js";
import type { Stage } from "../core/flow.js";
import type { FormatName } from "../formats/format.js";
import type { ValidRecord } from "../formats/valid-record.js";
import type { Field } from "../schema/column-type.js";
import type { ReadOptions } from "../sources/line-source.js";
import { openView } from "./open-view.js";
import type { ViewRequest } from "./open-view.js";
import { viewCard } from "./view-card.js";
import { viewManifest } from "./view-manifest.js";
import type { ViewManifest } from "./view-manifest.js";
import type { TextAudit } from "./text-audit.js";
import type { AnyView } from "./view.js";
import type { ViewOptions } from "./view-env.js";
import type { RlContext } from "./rl-context.js";
import { viewRecords } from "./view-records.js";
import { contextMissing, viewsReading } from "./view-traits.js";
import type { OnInjection, ViewedRecord } from "./view-records.js";
import { ViewTally } from "./view-tally.js";

/** A view opened for a run whose format is settled: its stage, columns, and what the manifest and card say. */
export interface ViewRun {
  readonly view: AnyView;
  /** The options the view's env was resolved from (files read), for engines that resolve it again elsewhere. */
  readonly options: ViewOptions;
  readonly onInjection: OnInjection;
  /** The RL records a DPO view joins against, read; null for the views without. */
  readonly context: RlContext | null;
  readonly columns: readonly Field[];
  readonly stage: Stage<ValidRecord, ViewedRecord>;
  /** What the manifest and card count: the stage adds to them, as may an engine that builds rows elsewhere. */
  readonly tally: ViewTally;
  readonly audit: TextAudit;
  manifest(): ViewManifest;
  card(): { readonly name: string; readonly lines: readonly string[] };
}

/**
 * Opens `request` (reading its files and context) for records of `format`; a ConfigError when the view reads
 * another, or, once the format fits, when it needs context that `contextRequired` says the caller must give.
 */
export async function openViewRun(
  request: ViewRequest,
  format: FormatName,
  o: { readonly scratch?: string; readonly read: ReadOptions; readonly acceptLaterMinor: boolean; readonly inputs?: string; readonly contextRequired: boolean },
): Promise<ViewRun> {
  const opened = await openView(request, o);
  const { view, env } = opened;
  if (view.from !== format) {
    const others = format === "sft" ? "no view reads sft" : `views of ${format}: ${viewsReading(format).join(", ")}`;
    throw new ConfigError(`The view ${view.name} reads ${view.from} records, but ${o.inputs ?? "the inputs"} hold${o.inputs === undefined ? "" : "s"} ${format} records (${others})`);
  }
  if (view.needsContext && o.contextRequired && request.context.length === 0) throw contextMissing(view.name);
  const tally = new ViewTally();
  const manifest = (): ViewManifest =>
    viewManifest({ ...opened, counts: tally.counts(), audit: env.audit.summary(), turnWeight: env.turnWeight });
  return {
    view,
    options: opened.options,
    onInjection: opened.onInjection,
    context: env.context,
    columns: view.columns,
    stage: viewRecords(view, env, tally, opened.onInjection),
    tally,
    audit: env.audit,
    manifest,
    card: () => ({ name: view.name, lines: viewCard(view, manifest()) }),
  };
}
