import type { RunPlan } from "../../plan/run-plan.js";
import type { EngineRun, RowSink, RunSources } from "../engine.js";

/**
 * The engine: reads the sources once or twice, validates, dedups, filters and strips, and writes kept rows
 * and quarantined lines into the sink, on main's thread (`--workers 0`) or across worker threads (the CLI
 * starts them first, `prestartWorkers`). Main reads and batches lines and decides dedup, the units parse,
 * validate, filter, strip and encode Parquet row groups; `--top-k-per-scenario` adds a read before, which only
 * ranks seats (run/rank-in-parallel.ts). Reads its inputs as bytes (every read reads them again): a job hands
 * it sources that have them.
 */
export async function runEngine(plan: RunPlan, sources: RunSources, sink: RowSink): Promise<EngineRun> {
  // Loaded when run: the CLI loads the engine's entry before the plan's sources are open.
  return (await import("./run-parallel.js")).runParallel(plan, sources, sink);
}
