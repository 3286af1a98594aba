import type { SuitesData } from "../../../formats/suite-book.js";
import type { FormatName } from "../../../formats/format.js";
import type { SchemaNode } from "../fast/schema-node.js";
import type { RunPlan } from "../../../plan/run-plan.js";
import type { Field } from "../../../schema/column-type.js";
import type { WorkerConfig } from "./protocol.js";
import type { ScoreBook } from "../../../formats/scorecard-book.js";
import type { GateBook } from "../../../formats/gate-book.js";
import type { ViewSetup } from "./unit-view.js";

/** What main settled from the inputs before the workers start: the format, the gating, the columns. */
export interface SettledRun {
  readonly format: FormatName;
  readonly gates: GateBook | undefined;
  readonly scores: ScoreBook | undefined;
  readonly columns: readonly Field[];
  readonly schema: SchemaNode;
  readonly view: ViewSetup | null;
  readonly textAudit: readonly string[] | null;
  /** `--top-k-per-scenario`: the parser's schema bound to no columns, for the ranking read. */
  readonly rankSchema: SchemaNode | null;
  readonly suites: SuitesData | null;
  /** The sink writes no dataset (validate's): the units encode nothing. */
  readonly discard?: boolean;
}

/** The workers' config: the plan's options, and what main settled. */
export function workerConfigOf(plan: RunPlan, run: SettledRun): WorkerConfig {
  return {
    format: run.format,
    forced: "forced" in plan.format,
    acceptLaterMinor: plan.acceptLaterMinor,
    filters: plan.filters,
    selection: plan.selection,
    gateBy: plan.gateBy,
    gates: run.gates === undefined ? null : run.gates.entries,
    scores: run.scores === undefined ? null : run.scores.data,
    codec: plan.shards.compression,
    lines: plan.shards.to === "jsonl" || plan.shards.rotation.kind === "buckets",
    keyed: plan.shards.rotation.kind === "buckets",
    maxLineBytes: plan.guards.maxLineBytes,
    columns: run.columns,
    schema: run.schema,
    view: run.view,
    split: plan.split ?? null,
    topKeys: null,
    rankSchema: run.rankSchema,
    textAudit: run.textAudit,
    suites: run.suites,
    // Rows it does not keep need no lines either.
    ...(run.discard === true ? { lines: false, keyed: false, discard: true } : {}),
  };
}
