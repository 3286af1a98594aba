import { EVALSHARD_VERSION } from "../../core/version.js";
import { formatName } from "../../formats/format.js";
import { columnPlan } from "../../parquet/column-plan.js";
import { outputColumns, resolveUntrustedPolicy } from "../../stages/untrusted-policy.js";
import { policyQuarantine } from "../policy-quarantine.js";
import type { RunPlan } from "../../plan/run-plan.js";
import type { EngineRun, RowGroupSink, RunSources } from "../engine.js";
import { sizeRotation } from "../size-rotation.js";
import { jsonlFormat } from "../../sinks/jsonl-format.js";
import { checkSelection } from "../../stages/select.js";
import { detectInputFormat } from "./detect-input-format.js";
import { loadFormatInfo } from "./fast/load-format-info.js";
import { parserSchemaFor } from "./fast/parser-schema-for.js";
import { convertInParallel } from "./run/convert-in-parallel.js";
import { workerConfigOf } from "./run/worker-config-of.js";
import { SplitAssigner } from "../../splits/split-assigner.js";
import { TextAudit } from "../../views/text-audit.js";
import { textAuditPaths } from "../../views/record-text-audit.js";

/** The parallel engine's run: settles the format, policy and columns in main, then converts on the workers. */
export async function runParallel(plan: RunPlan, sources: RunSources, sink: RowGroupSink): Promise<EngineRun> {
  const read = { maxLineBytes: plan.guards.maxLineBytes };
  const format = await loadFormatInfo("forced" in plan.format ? formatName(plan.format.forced) : await detectInputFormat(sources.lines, read));
  const scores = sources.scores?.();
  // A selection the format cannot answer is a usage error before any worker starts.
  checkSelection(plan.selection, { format: format.name, scores });
  // A split (issue 19): the workers find each row's group and split as the stages engine does; main counts them
  // and gives each split its own shards. Made once here: a split the format cannot have (DPO by run) is
  // refused before any worker starts.
  const { split: request } = plan;
  const splits = request === undefined ? null : () => new SplitAssigner(request, format.name);
  const names = splits?.().names;
  const policy = resolveUntrustedPolicy(format, plan.untrusted);
  // A training view's rows replace the stripped records: the workers validate and filter as ever, then build
  // the view's rows with the view's own code (src/views) and shred those.
  // Imported here: a plain run does not load the views' code.
  const view = plan.view === undefined ? null : await (await import("../../views/open-view-run.js")).openViewRun(plan.view, format.name, { read, acceptLaterMinor: plan.acceptLaterMinor, contextRequired: plan.source.kind === "files" });
  const columns = view?.columns ?? outputColumns(format, policy);
  const schema = view === null ? parserSchemaFor(format, policy) : parserSchemaFor(format, policy, null);
  const quarantine = policyQuarantine(sink.quarantine(format.name), policy);
  const layout = columnPlan(columns);
  const limits = sizeRotation(plan);
  const input = names === undefined ? {} : { splits: names };
  // JSON Lines: the units encode each row's line; the shards are the stages' JSONL format.
  const { to, compression } = plan.shards;
  const lines = to === "jsonl" && compression !== "snappy" ? jsonlFormat({ compression }) : null;
  try {
    const { shards, tally, view: unitCounts, split, audits, stats } = await convertInParallel({
      sources: sources.lines,
      shards: () => (lines === null ? sink.rowGroupSets(layout, `evalshard version ${EVALSHARD_VERSION}`, input) : sink.lineSets(lines, columns, input)),
      splits,
      plan: layout,
      worker: workerConfigOf(plan, { format: format.name, gates: sources.gates(), scores, columns, schema, view: view === null ? null : { name: view.view.name, options: view.options }, textAudit: view === null ? textAuditPaths(format) : null, rankSchema: plan.selection.topKPerScenario === null ? null : parserSchemaFor(format, policy, null) }),
      workers: plan.engine.workers,
      read,
      shardRows: limits.maxRows,
      shardBytes: limits.maxBytes,
      quarantine,
    });
    const run = { engine: "parallel" as const, format, policy, columns, shards, tally, quarantine, stats, ...(split === null ? {} : { split }) };
    if (view === null) {
      // A plain run's text scan (issue 18), per unit from the workers.
      const textAudit = new TextAudit();
      for (const audit of audits) textAudit.mergeSummary(audit);
      return { ...run, textAudit: textAudit.summary() };
    }
    for (const unit of unitCounts) {
      view.tally.merge(unit.counts);
      // A tokenized view's lengths: the unit's kept records', as the stages engine counts them row by row.
      for (const [length, rows] of unit.counts.tokens ?? []) stats.addTokens(length, rows);
      view.audit.mergeSummary(unit.audit);
    }
    return { ...run, view: { manifest: view.manifest(), card: view.card() } };
  } finally {
    await quarantine.close();
    await lines?.dispose();
  }
}

