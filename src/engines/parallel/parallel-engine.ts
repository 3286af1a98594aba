import type { Engine, RowSink } from "../engine.js";
import { prestartWorkers, releaseWorkers } from "./run/prestart-workers.js";

/**
 * Worker threads over one read of the inputs (src/engines/parallel/run): main reads and batches lines and
 * decides dedup, workers parse, validate, filter, strip and encode Parquet row groups. `--top-k-per-scenario`
 * adds a read before, which only ranks seats (run/rank-in-parallel.ts). Reads its inputs as bytes (every read
 * reads them again): a job hands it sources that have them.
 */
export const parallelEngine: Engine<RowSink> = {
  name: "parallel",
  refuses(plan) {
    // A row's split travels as two bytes between the threads.
    // Every source has bytes: a job spools a source that has only lines (sources/spooled-lines.ts).
    return plan.split !== undefined && Object.keys(plan.split.fractions).length > 65_536 ? "it splits into at most 65536 splits (--split)" : null;
  },
  prepare: (plan) => prestartWorkers(plan.engine.workers),
  standDown: releaseWorkers,
  // Loaded when run: the CLI loads this module (light on purpose) before it knows which engine runs.
  run: async (plan, sources, sink) => (await import("./run-parallel.js")).runParallel(plan, sources, sink),
};
