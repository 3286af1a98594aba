import { beatsWinner } from "../core/dedup-rule.js";
import type { RlRecord, RlTuple } from "../formats/rl.js";

/** The step a DPO pair takes its prompt from: its window and the seat role that says whose messages are own. */
export interface ContextStep {
  readonly seatRole: string;
  readonly window: RlTuple["state"]["transcript_window"];
}

interface Trajectory {
  readonly version: number;
  readonly seatRole: string;
  readonly windows: ReadonlyMap<number, RlTuple["state"]["transcript_window"]>;
}

/**
 * The RL records given as context (`--context`) to a DPO view, indexed by run, seat and step index. Of two
 * records of one run and seat, the one dedup keeps (`beatsWinner`; windows do not change on a rescore).
 * Holds every window it is given: context is the RL export of the pairs' runs, not a corpus.
 */
export class RlContext {
  readonly #trajectories = new Map<string, Trajectory>();

  add(record: RlRecord): void {
    const key = keyOf(record.run_id, record.seat.seat_index);
    const known = this.#trajectories.get(key);
    if (known !== undefined && !beatsWinner(record.scorecard_version, known.version)) return;
    this.#trajectories.set(key, {
      version: record.scorecard_version,
      seatRole: record.seat.role,
      windows: new Map(record.tuples.map((t) => [t.index, t.state.transcript_window])),
    });
  }

  /** The step `index` of `runId`'s seat `seatIndex`, if the context has it. */
  step(runId: string, seatIndex: number, index: number): ContextStep | undefined {
    const trajectory = this.#trajectories.get(keyOf(runId, seatIndex));
    const window = trajectory?.windows.get(index);
    return trajectory === undefined || window === undefined ? undefined : { seatRole: trajectory.seatRole, window };
  }

  /** Trajectories held. */
  get size(): number {
    return this.#trajectories.size;
  }

  /** What it holds, as plain data a worker thread is sent (`RlContext.of`). */
  entries(): RlContextEntries {
    return [...this.#trajectories].map(([key, t]) => [key, t.version, t.seatRole, [...t.windows]]);
  }

  static of(entries: RlContextEntries): RlContext {
    const context = new RlContext();
    for (const [key, version, seatRole, windows] of entries) context.#trajectories.set(key, { version, seatRole, windows: new Map(windows) });
    return context;
  }
}

/** An RlContext's trajectories as plain data: key, version, seat role, windows by step index. */
export type RlContextEntries = readonly (readonly [string, number, string, readonly (readonly [number, RlTuple["state"]["transcript_window"]])[]])[];

function keyOf(runId: string, seatIndex: number): string {
  return `${seatIndex}\u0000${runId}`;
}
