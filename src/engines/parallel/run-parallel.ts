import { formatName } from "../../formats/format.js";
import { columnPlan } from "../../parquet/column-plan.js";
import { outputColumns, resolveUntrustedPolicy } from "../../stages/untrusted-policy.js";
import { policyQuarantine } from "../policy-quarantine.js";
import type { RunPlan } from "../../plan/run-plan.js";
import type { EngineRun, KeyedRows, RowSink, RunSources } from "../engine.js";
import type { ShardFormat } from "../../output/shard-format.js";
import type { Field } from "../../schema/column-type.js";
import { sizeRotation } from "../size-rotation.js";
import { jsonlFormat } from "../../sinks/jsonl-format.js";
import { checkSelection } from "../../stages/select.js";
import { detectInputFormat } from "./detect-input-format.js";
import { loadFormatInfo } from "./fast/load-format-info.js";
import { parserSchemaFor } from "./fast/parser-schema-for.js";
import { recordStripper } from "./fast/record-stripper.js";
import { convertInParallel } from "./run/convert-in-parallel.js";
import { discarding } from "./run/protocol.js";
import type { WorkerConfig } from "./run/protocol.js";
import type { UnitFollower } from "./run/written-unit.js";
import { KeyedLineSets } from "./run/keyed-line-sets.js";
import { SplitAssigner } from "../../splits/split-assigner.js";
import { textAuditPaths } from "../../views/text-audit-paths.js";

/**
 * The parallel engine's run: settles the format, policy and columns in main, then converts on the workers.
 * `follow`: each unit's lines once its rows are in the sink (the library's stream), which scans no texts.
 */
export async function runParallel(plan: RunPlan, sources: RunSources, sink: RowSink, follow?: UnitFollower): Promise<EngineRun> {
  const read = { maxLineBytes: plan.guards.maxLineBytes };
  const format = await loadFormatInfo("forced" in plan.format ? formatName(plan.format.forced) : await detectInputFormat(sources.lines, read));
  const scores = sources.scores?.();
  // A selection the format cannot answer is a usage error before any worker starts.
  checkSelection(plan.selection, { format: format.name, scores });
  // A split (issue 19): the workers find each row's group and split (SplitAssigner's rule); main counts them
  // and gives each split its own shards. Made once here: a split the format cannot have (DPO by run) is
  // refused before any worker starts.
  const { split: request } = plan;
  const splits = request === undefined ? null : () => new SplitAssigner(request, format.name);
  const names = splits?.().names;
  const policy = resolveUntrustedPolicy(format, plan.untrusted);
  // A training view's rows replace the stripped records: the workers validate and filter as ever, then build
  // the view's rows with the view's own code (src/views) and shred those.
  // Imported here: a plain run does not load the views' code.
  // A DPO view's context is read here, once, and sent to the workers.
  const context = sources.viewContext?.() ?? null;
  const viewRequest = plan.view === undefined || context === null ? plan.view : { ...plan.view, context: [context.path], contextNames: [context.name] };
  // A nightly's kept token counts: the units look their rows up in their own copies, and main's cache takes
  // what the kept records' rows found, in their order.
  const cache = plan.view?.tokenCache;
  const view = viewRequest === undefined ? null : await (await import("../../views/open-view-run.js")).openViewRun(viewRequest, format.name, { scratch: sink.scratch, read, acceptLaterMinor: plan.acceptLaterMinor, contextRequired: plan.source.kind === "files" });
  const columns = view?.columns ?? outputColumns(format, policy);
  const schema = view === null ? parserSchemaFor(format, policy) : parserSchemaFor(format, policy, null);
  const quarantine = policyQuarantine(sink.quarantine(format.name), policy, recordStripper(schema));
  const suites = sources.suites?.() ?? null;
  const suitesData = suites?.data ?? null;
  if (suites !== null && suitesData === null) throw new Error("Internal error: the parallel engine was given suites it cannot send its workers");
  const layout = columnPlan(columns);
  const input = names === undefined ? {} : { splits: names };
  // A nightly's buckets: the units encode each row's keyed line, and the sink cuts its buckets (no size limit).
  const keyed = plan.shards.rotation.kind === "buckets" ? await keyedRowsOf(plan, sink, columns) : null;
  const limits = keyed === null ? sizeRotation(plan) : { maxRows: Infinity, maxBytes: Infinity };
  // JSON Lines: the units encode each row's line; main writes them as JSON Lines shards.
  const { to, compression } = plan.shards;
  const lines = keyed === null && to === "jsonl" && compression !== "snappy" ? jsonlFormat({ compression }) : null;
  const shardSets = () => {
    if (keyed !== null) return new KeyedLineSets(keyed.rows, names ?? null);
    return lines === null ? sink.rowGroupSets(layout, input) : sink.lineSets(lines, columns, input);
  };
  try {
    const worker: WorkerConfig = {
      format: format.name,
      forced: "forced" in plan.format,
      acceptLaterMinor: plan.acceptLaterMinor,
      filters: plan.filters,
      selection: plan.selection,
      gateBy: plan.gateBy,
      gates: sources.gates()?.entries ?? null,
      scores: scores?.data ?? null,
      codec: compression,
      lines: to === "jsonl" || keyed !== null,
      keyed: keyed !== null,
      maxLineBytes: plan.guards.maxLineBytes,
      columns,
      schema,
      view: view === null ? null : { name: view.view.name, options: view.options, quarantine: view.onInjection === "quarantine", context: view.context?.entries() ?? null, ...(cache === undefined ? {} : { tokenCounts: cache.text }) },
      split: request ?? null,
      topKeys: null,
      rankSchema: plan.selection.topKPerScenario === null ? null : parserSchemaFor(format, policy, null),
      textAudit: view === null && follow === undefined ? textAuditPaths(format) : null,
      suites: suitesData,
    };
    const { shards: written, keys, tally, view: unitCounts, split, textAudit, stats } = await convertInParallel({
      sources: sources.lines,
      shards: shardSets,
      splits,
      // validate's sink keeps no rows: the units need not encode them.
      worker: sink.discards === true ? discarding(worker) : worker,
      workers: plan.engine.workers,
      limits,
      quarantine,
      suites,
      ...(follow === undefined ? {} : { follow }),
    });
    const shards = keyed === null ? written : await keyed.rows.finish({ format, keys, ...input });
    const run = { engine: "parallel" as const, format, policy, columns, shards, tally, quarantine, stats, ...(split === null ? {} : { split }) };
    // A plain run's text scan (issue 18), from the workers.
    if (view === null) return { ...run, textAudit };
    for (const unit of unitCounts) {
      let hits = 0;
      for (const record of unit.tokenCounts ?? []) {
        const found = cache?.absorb(record.entries) ?? 0;
        if (record.counted) hits += found;
      }
      const { tokens_cached: cached } = unit.counts;
      view.tally.merge(cached === undefined ? unit.counts : { ...unit.counts, tokens_cached: cached + hits });
      // A tokenized view's lengths: the unit's kept records', counted row by row.
      for (const [length, rows] of unit.counts.tokens ?? []) stats.addTokens(length, rows);
      view.audit.mergeSummary(unit.audit);
    }
    return { ...run, view: { manifest: view.manifest(), card: view.card() } };
  } finally {
    await quarantine.close();
    await lines?.dispose();
    await keyed?.format.dispose();
  }
}

/** A nightly's keyed rows, in the shard format the plan names (`shardFormatFor`, src/sinks). */
async function keyedRowsOf(plan: RunPlan, sink: RowSink, columns: readonly Field[]): Promise<{ rows: KeyedRows; format: ShardFormat }> {
  // Loaded here: a plain run writes its own encoded shards.
  const format = (await import("../../sinks/shard-format-for.js")).shardFormatFor(plan.shards.to, plan.shards.compression);
  return { rows: sink.keyedRows(format, columns), format };
}

