import { Tally } from "../../core/tally.js";
import type { RunPlan } from "../../plan/run-plan.js";
import type { Engine, RecordSink } from "../engine.js";
import { policyQuarantine } from "../policy-quarantine.js";
import { policyStripper } from "../parallel/index.js";
import { sizeRotation } from "../size-rotation.js";
import { SplitAssigner } from "../../splits/split-assigner.js";
import { DatasetStats } from "../../stats/dataset-stats.js";
import { statsRowOf } from "../../stats/stats-row.js";
import { scoreOf } from "../../stages/select.js";
import type { PipelineOptions } from "./pipeline.js";

/**
 * The library's stages, one record at a time (src/stages, composed in `pipeline.ts`): reads the inputs
 * twice, the first read settling the format and which copy of each key wins. Runs every plan.
 */
export const stagesEngine: Engine<RecordSink> = {
  name: "stages",
  refuses: () => null,
  async run(plan, sources, sink) {
    // Loaded when run: they bring zod and the shard writers, which the parallel engine's main thread does without.
    const [{ planPipeline, runPipeline }, { formatByName }, { shardFormatFor }, { openViewRun }, { RecordTextAudit }] = await Promise.all([
      import("./pipeline.js"),
      import("../../formats/index.js"),
      import("../../sinks/shard-format-for.js"),
      import("../../views/open-view-run.js"),
      import("../../views/record-text-audit.js"),
    ]);
    const scores = sources.scores?.();
    const options: PipelineOptions = {
      ...("forced" in plan.format ? { format: formatByName(plan.format.forced) } : {}),
      ...pipelineOptionsOf(plan),
      ...(scores === undefined ? {} : { scores }),
    };
    const settled = await planPipeline(sources.lines, options);
    const gates = sources.gates();
    const suites = sources.suites?.();
    // A training view replaces strip: it emits its own sanitized texts, row by row.
    const context = sources.viewContext?.() ?? null;
    const request = plan.view === undefined || context === null ? plan.view : { ...plan.view, context: [context.path], contextNames: [context.name] };
    const view = request === undefined ? null : await openViewRun(request, settled.format.name, { scratch: sink.scratch, read: options.read ?? {}, acceptLaterMinor: plan.acceptLaterMinor, contextRequired: plan.source.kind === "files" });
    const textAudit = view === null ? new RecordTextAudit(settled.format) : null;
    const columns = view?.columns ?? settled.columns;
    const shardFormat = shardFormatFor(plan.shards.to, plan.shards.compression);
    // A nightly's rows go into fixed hash buckets, which its sink cuts: no size limit applies.
    const limits = plan.shards.rotation.kind === "size" ? sizeRotation(plan) : { maxRows: Infinity, maxBytes: Infinity };
    // A split (issue 19): each row goes where its record's group goes, a view row too.
    const splits = plan.split === undefined ? null : new SplitAssigner(plan.split, settled.format.name);
    const writer = sink.records(shardFormat, columns, limits, { format: settled.format, keys: settled.index.size, ...(splits === null ? {} : { splits: splits.names }) });
    const quarantine = policyQuarantine(sink.quarantine(settled.format.name), settled.policy, await policyStripper(settled.format, settled.policy));
    const tally = new Tally();
    // The dataset's statistics, from each kept record as it is written (issue 36).
    const stats = new DatasetStats();
    const score = scoreOf(settled.format.name, scores);
    try {
      const items = runPipeline(sources.lines, settled, { ...options, ...(gates === undefined ? {} : { gates }), ...(suites === undefined ? {} : { suites }), ...(view === null ? {} : { strip: false as const }) });
      for await (const item of view === null ? items : view.stage(items)) {
        tally.add(item);
        if (item.kind === "quarantined") await quarantine.write(item);
        if (item.kind !== "kept") continue;
        const value = item.value;
        if ("rows" in value) {
          // Rotation measures input bytes: a record's are shared among its rows.
          const bytes = value.rows.length === 0 ? 0 : value.record.bytes / value.rows.length;
          const { key, scorecardVersion: version } = value.record.facts;
          const split = splits?.assign(value.record.record, value.rows.length);
          stats.add(statsRowOf(value.record.facts, value.record.record, score(value.record.facts, value.record.record), split), value.rows.length);
          for (const n of value.tokens ?? []) stats.addTokens(n);
          for (const [row, rowRecord] of value.rows.entries()) await writer.write(rowRecord, bytes, { key, version, row, ...(split === undefined ? {} : { split }) });
        } else {
          textAudit?.add(value.record);
          const split = splits?.assign(value.record);
          stats.add(statsRowOf(value.facts, value.record, score(value.facts, value.record), split));
          await writer.write(value.record, value.bytes, { key: value.facts.key, version: value.facts.scorecardVersion, ...(split === undefined ? {} : { split }) });
        }
      }
      const shards = await writer.finish();
      return {
        engine: "stages",
        format: settled.format,
        policy: settled.policy,
        columns,
        shards,
        tally,
        quarantine,
        stats,
        ...(textAudit === null ? {} : { textAudit: textAudit.summary() }),
        ...(splits === null ? {} : { split: splits.summary() }),
        ...(view === null ? {} : { view: { manifest: view.manifest(), card: view.card() } }),
      };
    } catch (error) {
      await writer.abort();
      throw error;
    } finally {
      await quarantine.close();
      await shardFormat.dispose();
    }
  },
};

/** The pipeline's options from the plan, but the forced format (the caller looks it up). */
function pipelineOptionsOf(plan: RunPlan): PipelineOptions {
  return { acceptLaterMinor: plan.acceptLaterMinor, read: { maxLineBytes: plan.guards.maxLineBytes }, filters: plan.filters, gateBy: plan.gateBy, untrusted: plan.untrusted, selection: plan.selection };
}
