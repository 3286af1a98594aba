import { Tally } from "../../core/tally.js";
import type { RunPlan } from "../../plan/run-plan.js";
import type { Engine, RecordSink } from "../engine.js";
import { sizeRotation } from "../size-rotation.js";
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
    const [{ planPipeline, runPipeline }, { formatByName }, { shardFormatFor }] = await Promise.all([
      import("./pipeline.js"),
      import("../../formats/index.js"),
      import("../../sinks/shard-format-for.js"),
    ]);
    const options: PipelineOptions = {
      ...("forced" in plan.format ? { format: formatByName(plan.format.forced) } : {}),
      ...pipelineOptionsOf(plan),
    };
    const settled = await planPipeline(sources.lines, options);
    const gatedRuns = sources.gatedRuns();
    const shardFormat = shardFormatFor(plan.shards.to, plan.shards.compression);
    const writer = sink.records(shardFormat, settled.columns, sizeRotation(plan));
    const quarantine = sink.quarantine(settled.format.name);
    const tally = new Tally();
    try {
      for await (const item of runPipeline(sources.lines, settled, { ...options, ...(gatedRuns === undefined ? {} : { gatedRuns }) })) {
        tally.add(item);
        if (item.kind === "kept") await writer.write(item.value.record, item.value.bytes);
        else if (item.kind === "quarantined") await quarantine.write(item);
      }
      const shards = await writer.finish();
      return { engine: "stages", format: settled.format, policy: settled.policy, columns: settled.columns, shards, tally, quarantine };
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
  return { acceptLaterMinor: plan.acceptLaterMinor, read: { maxLineBytes: plan.guards.maxLineBytes }, filters: plan.filters, untrusted: plan.untrusted };
}
