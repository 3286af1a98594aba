import type { Engine, RowGroupSink } from "../engine.js";
import { prestartWorkers, releaseWorkers } from "./run/prestart-workers.js";

/**
 * Worker threads over one read of the inputs (src/engines/parallel/run): main reads and batches lines and
 * decides dedup, workers parse, validate, filter, strip and encode Parquet row groups. Needs inputs it can
 * read as bytes, and writes Parquet with the codecs it encodes.
 */
export const parallelEngine: Engine<RowGroupSink> = {
  name: "parallel",
  refuses(plan, sources) {
    const { to, rotation } = plan.shards;
    if (to !== "parquet") return `it writes Parquet only, not ${to}`;
    if (rotation.kind !== "size") return "it rotates shards by size, not into buckets";
    if (plan.view !== undefined) return `it does not build training views (--view ${plan.view.name})`;
    const unreadable = sources?.lines.find((s) => s.bytes === undefined);
    return unreadable === undefined ? null : `input ${JSON.stringify(unreadable.name)} cannot be read as bytes`;
  },
  prepare: (plan) => prestartWorkers(plan.engine.workers),
  standDown: releaseWorkers,
  // Loaded when run: the CLI loads this module (light on purpose) before it knows which engine runs.
  run: async (plan, sources, sink) => (await import("./run-parallel.js")).runParallel(plan, sources, sink),
};
