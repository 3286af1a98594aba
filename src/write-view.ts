import type { FormatBasics } from "./formats/format.js";
import type { DatasetSink } from "./output/dataset-sink.js";
import type { QuarantineWriter } from "./output/quarantine-writer.js";
import type { ShardInfo } from "./output/shard-format.js";
import type { PipelineOptions } from "./pipeline.js";
import type { RunPlan } from "./plan/run-plan.js";
import type { Field } from "./schema/column-type.js";
import type { LineSource } from "./sources/line-source.js";
import { Tally } from "./core/tally.js";
import type { UntrustedPolicy } from "./stages/untrusted-policy.js";
import type { ViewManifest } from "./views/view-manifest.js";
import { openViewRun } from "./views/open-view-run.js";

/** What a view run wrote into the sink (convert's `Written`, plus the view's manifest section and card paragraph). */
export interface ViewWritten {
  readonly engine: "stages";
  readonly format: FormatBasics;
  readonly policy: UntrustedPolicy;
  readonly columns: readonly Field[];
  readonly shards: ShardInfo[];
  readonly tally: Tally;
  readonly quarantine: QuarantineWriter;
  readonly view: ViewManifest;
  readonly card: { readonly name: string; readonly lines: readonly string[] };
}

/**
 * A training view on the stages engine (issue 18): validate → dedup → filter as for records, then the view
 * instead of strip (a view emits its own sanitized texts). The run's tally counts records, the view's tally
 * rows and the steps or pairs left out; the sink gets the view's columns. To be ported into
 * src/engines/stages with the jobs move.
 */
export async function writeView(plan: RunPlan, sink: DatasetSink, sources: LineSource[], gatedRuns: ReadonlySet<string> | undefined): Promise<ViewWritten> {
  if (plan.view === undefined) throw new Error("Internal error: writeView without a view");
  const [{ planPipeline, runPipeline }, { formatByName }, { shardFormatFor }] = await Promise.all([import("./pipeline.js"), import("./formats/index.js"), import("./sinks/shard-format-for.js")]);
  const read = { maxLineBytes: plan.guards.maxLineBytes };
  const pipelineOptions: PipelineOptions = {
    ...("forced" in plan.format ? { format: formatByName(plan.format.forced) } : {}),
    acceptLaterMinor: plan.acceptLaterMinor,
    read,
    filters: plan.filters,
    ...(gatedRuns === undefined ? {} : { gatedRuns }),
    untrusted: plan.untrusted,
    strip: false,
  };
  const settled = await planPipeline(sources, pipelineOptions);
  const view = await openViewRun(plan.view, settled.format.name, { scratch: sink.scratch, read, acceptLaterMinor: plan.acceptLaterMinor });
  if (plan.shards.rotation.kind !== "size") throw new Error("Internal error: convert rotates shards by size");
  const shardFormat = shardFormatFor(plan.shards.to, plan.shards.compression);
  const writer = sink.records(shardFormat, view.columns, plan.shards.rotation);
  const quarantine = sink.quarantine(settled.format.name);
  const tally = new Tally();
  try {
    for await (const item of view.stage(runPipeline(sources, settled, pipelineOptions))) {
      tally.add(item);
      if (item.kind === "kept") {
        // Rotation measures input bytes: a record's are shared among its rows.
        const bytes = item.value.rows.length === 0 ? 0 : item.value.record.bytes / item.value.rows.length;
        for (const row of item.value.rows) await writer.write(row, bytes);
      } else if (item.kind === "quarantined") await quarantine.write(item);
    }
    const shards = await writer.finish();
    return { engine: "stages", format: settled.format, policy: settled.policy, columns: view.columns, shards, tally, quarantine, view: view.manifest(), card: view.card() };
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    await quarantine.close();
    await shardFormat.dispose();
  }
}
