import { tmpdir } from "node:os";
import type { RunPlan } from "../../plan/run-plan.js";
import type { KeyedRows, QuarantineSink, RowSink, RunSources } from "../engine.js";
import { runParallel } from "./run-parallel.js";
import type { LineOutcome } from "./run/written-unit.js";

/** A unit of the stream: its non-blank lines' outcomes in input order, and each kept line's record as JSON (stripped and pruned as a dataset holds it). */
export interface StreamedUnit {
  readonly lines: readonly LineOutcome[];
  readonly rows: readonly string[];
}

/** The run was left by its caller: it stops at its next unit. */
class StreamLeft extends Error {}

/**
 * A plan's run handed over a unit at a time, in input order: the same stages, decisions and counts as a
 * convert, each unit handed over once its caller has taken the one before (a slow caller holds the run back;
 * the run ends when the caller leaves). The plan's rotation is a nightly's buckets, so that the units encode
 * each kept row as a keyed sink stores it; `rows` false: they encode none.
 */
export async function* streamUnits(plan: RunPlan, sources: RunSources, rows: boolean): AsyncGenerator<StreamedUnit> {
  const queue: StreamedUnit[] = [];
  // The rows of the unit being written, until its lines follow them.
  let written: string[] = [];
  let left = false;
  let finished = false;
  let failure: unknown = null;
  // Set by whoever waits: the caller for a unit, the run for the caller to take one.
  const wake: { reader: (() => void) | null; run: (() => void) | null } = { reader: null, run: null };
  const follow = async (lines: readonly LineOutcome[]): Promise<void> => {
    if (left) throw new StreamLeft();
    queue.push({ lines, rows: written });
    written = [];
    wake.reader?.();
    while (queue.length > 0 && !left) await new Promise<void>((resolve) => (wake.run = resolve));
    if (left) throw new StreamLeft();
  };
  const keyed: KeyedRows = {
    add: (line) => Promise.resolve(void written.push(line)),
    finish: () => Promise.resolve([]),
    restart: () => Promise.resolve(void (written = [])),
  };
  const discard: QuarantineSink = { write: () => Promise.resolve(), close: () => Promise.resolve(), path: "", entries: 0 };
  const unused = (): never => {
    throw new Error("Internal error: the stream's plan cuts buckets");
  };
  const sink: RowSink = { scratch: tmpdir(), discards: !rows, rowGroupSets: unused, lineSets: unused, keyedRows: () => keyed, quarantine: () => discard };
  const run = runParallel(plan, sources, sink, follow).then(
    () => undefined,
    (error: unknown) => {
      failure = error;
    },
  );
  void run.finally(() => {
    finished = true;
    wake.reader?.();
  });
  try {
    for (;;) {
      const unit = queue.shift();
      if (unit !== undefined) {
        wake.run?.();
        yield unit;
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => (wake.reader = resolve));
    }
    if (failure !== null) throw failure;
  } finally {
    left = true;
    wake.run?.();
    await run;
  }
}
