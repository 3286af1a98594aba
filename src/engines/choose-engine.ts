import { ConfigError } from "../core/errors.js";
import type { RunPlan } from "../plan/run-plan.js";
import type { Engine, RunSources } from "./engine.js";
import { parallelEngine } from "./parallel/index.js";
import { stagesEngine } from "./stages/stages-engine.js";

/** Every engine, in the order `--engine auto` tries them: the first that does not refuse the plan runs it. */
export const ENGINES: readonly Engine[] = [parallelEngine, stagesEngine];

/**
 * The engine the plan asks for: under "auto" the first of `engines` that can run it; a named one that
 * refuses is a ConfigError naming its reason.
 */
export function chooseEngine(plan: RunPlan, sources: RunSources, engines: readonly Engine[] = ENGINES): Engine {
  const chosen = pick(plan, sources, engines);
  for (const e of engines) if (e !== chosen) e.standDown?.();
  return chosen;
}

/**
 * Before the sources are open: the engine the plan alone points to gets ready (the parallel engine starts its
 * workers, which load their code while main loads the job's). The choice proper may still go elsewhere.
 */
export function prepareEngine(plan: RunPlan, engines: readonly Engine[] = ENGINES): void {
  const { choice } = plan.engine;
  const likely = choice === "auto" ? engines.find((e) => e.refuses(plan) === null) : engines.find((e) => e.name === choice && e.refuses(plan) === null);
  likely?.prepare?.(plan);
}

function pick(plan: RunPlan, sources: RunSources, engines: readonly Engine[]): Engine {
  const choice = plan.engine.choice;
  if (choice === "auto") {
    const able = engines.find((e) => e.refuses(plan, sources) === null);
    if (able === undefined) throw new ConfigError(`No engine can run this conversion: ${engines.map((e) => `${e.name}: ${e.refuses(plan, sources)}`).join("; ")}`);
    return able;
  }
  const engine = engines.find((e) => e.name === choice);
  if (engine === undefined) throw new Error(`Internal error: no engine is named ${JSON.stringify(choice)}`);
  const why = engine.refuses(plan, sources);
  if (why === null) return engine;
  const others = engines.filter((e) => e !== engine).map((e) => e.name);
  throw new ConfigError(`The ${choice} engine cannot run this conversion: ${why}; use --engine ${[...others, "auto"].join(" or ")}`);
}
