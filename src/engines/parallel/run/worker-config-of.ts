import type { RunPlan } from "../../../plan/run-plan.js";
import type { WorkerConfig } from "./protocol.js";
import type { ScoreBook } from "../../../formats/scorecard-book.js";
import type { GateBook } from "../../../formats/gate-book.js";

/** What main settled from the inputs before the workers start (as WorkerConfig holds it), and the gating and scores. */
export type SettledRun = Pick<WorkerConfig, "format" | "columns" | "schema" | "view" | "textAudit" | "rankSchema" | "suites" | "discard"> & {
  readonly gates: GateBook | undefined;
  readonly scores: ScoreBook | undefined;
};

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
