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
 * records of one run and seat, the higher `scorecard_version` is kept, as dedup does (windows do not change
 * on a rescore). Holds every window it is given: context is the RL export of the pairs' runs, not a corpus.
 */
export class RlContext {
  readonly #trajectories = new Map<string, Trajectory>();

  add(record: RlRecord): void {
    const key = keyOf(record.run_id, record.seat.seat_index);
    const known = this.#trajectories.get(key);
    if (known !== undefined && known.version >= record.scorecard_version) return;
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
}

function keyOf(runId: string, seatIndex: number): string {
  return `${seatIndex}\u0000${runId}`;
}
