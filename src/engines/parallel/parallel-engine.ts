import type { Engine, RowSink } from "../engine.js";
import { prestartWorkers } from "./run/prestart-workers.js";

/**
 * Worker threads over one read of the inputs (src/engines/parallel/run): main reads and batches lines and
 * decides dedup, workers parse, validate, filter, strip and encode Parquet row groups. `--top-k-per-scenario`
 * adds a read before, which only ranks seats (run/rank-in-parallel.ts). Reads its inputs as bytes (every read
 * reads them again): a job hands it sources that have them.
 */
export const parallelEngine: Engine<RowSink> = {
  name: "parallel",
  prepare: (plan) => prestartWorkers(plan.engine.workers),
  // Loaded when run: the CLI loads this module (light on purpose) before the plan's sources are open.
  run: async (plan, sources, sink) => (await import("./run-parallel.js")).runParallel(plan, sources, sink),
};
