import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";
import { workerScript } from "./worker-script.js";

let waiting: Worker[] = [];

/**
 * A worker's young generation, at most, held so that peak memory stays flat as the input grows
 * (docs/decisions.md "hot code shape", young generation).
 */
const YOUNG_GENERATION_MB = 8;
const startWorker = (): Worker => new Worker(workerScript(), { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
const dead = new WeakSet<Worker>();

/**
 * Starts the parallel engine's worker threads now, before the run is set up: loading a worker's code then
 * overlaps main loading its own. The CLI calls this first thing; the parallel engine takes them.
 * Light on purpose: this module loads nothing of the pipeline.
 */
export function prestartWorkers(count: number): void {
  // No threads (`--workers 0`): main runs the units, and background compiles have the other cores.
  if (count === 0) return;
  // Code compiled on the thread that runs it (docs/decisions.md "hot code shape", compile threads).
  // Process-wide, so only the CLI (through here) sets it; it must precede the isolates.
  setFlagsFromString("--no-concurrent-recompilation");
  for (let i = waiting.length; i < count; i++) {
    const worker = startWorker();
    // Until a run takes it, an idle worker must not keep the process alive, nor fail it: a worker that
    // died waiting is replaced when taken.
    worker.unref();
    worker.on("error", () => dead.add(worker));
    worker.on("exit", () => dead.add(worker));
    waiting.push(worker);
  }
}

/** `count` worker threads: prestarted ones first, new ones for the rest. */
export function takeWorkers(count: number): Worker[] {
  const taken = waiting.filter((w) => !dead.has(w)).slice(0, count);
  for (const w of taken) w.ref();
  for (const w of waiting) if (!taken.includes(w)) void w.terminate();
  waiting = [];
  while (taken.length < count) taken.push(startWorker());
  return taken;
}

