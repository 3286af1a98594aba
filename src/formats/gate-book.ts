import { worstGate } from "./card-gate.js";
import type { CardSeat, Gate, GateBy } from "./card-gate.js";

/**
 * One card's gating: its run, seat (false: a key that cannot be read), the scorecard version it describes
 * (null: unknown, so it speaks for every version of the run) and its answer. A plain tuple, so the
 * parallel engine hands the book to its workers as it is.
 */
export type GateEntry = readonly [runId: string, seat: CardSeat, version: number | null, gate: Gate];

/**
 * A card that is not open, by seat: what a pull keeps of a run's cards (a score cache entry holds these).
 * An unreadable one says why (`participation_gated is "false"`), for the warning that names run, key and field.
 */
export type SeatGate = readonly [seat: CardSeat, gate: "gated"] | readonly [seat: CardSeat, gate: "unreadable", why: string];

/** The warning for an unreadable seat gate: names the run, the key and the field. */
export function unreadableGateText(runId: string, gate: SeatGate): string | null {
  if (gate[1] !== "unreadable") return null;
  const key = gate[0] === false ? "unreadable" : JSON.stringify(gate[0]);
  return `scorecard of run ${runId}, agent_key_id ${key}: ${gate[2]}; its seat(s) are dropped as unreadable_gating`;
}

/** A run's seat gates as book entries of unknown version (a pull asks each run's cards of its records' version). */
export function runGateEntries(runId: string, gates: readonly SeatGate[]): GateEntry[] {
  return gates.map((g) => [runId, g[0], null, g[1]]);
}

/** What a record is judged by: its runs, its seat (null: a DPO pair, which names no seat's key) and its version. */
export interface GatedRecord {
  readonly runIds: readonly string[];
  readonly seat: { readonly agentKeyId: string | null } | null;
  readonly scorecardVersion: number | null;
}

/**
 * Participation gating, the one rule (issue 39; docs/rules.md). A seat record (SFT, RL) is judged by the
 * cards of its run and of its `scorecard_version` (or of an unknown version): with `seat`, its own card
 * (by `agent_key_id`) and any card whose key cannot be read; with `run`, every card of the run. A DPO
 * pair names no seat's key: each of its runs is judged by its cards of the run's latest version, and the
 * pair by the worse. Gated wins over unreadable, which wins over open; a seat without a card is open.
 */
export class GateBook {
  readonly #entries: readonly GateEntry[];
  readonly #byRun = new Map<string, GateEntry[]>();

  constructor(entries: readonly GateEntry[]) {
    this.#entries = entries;
    for (const entry of entries) {
      const list = this.#byRun.get(entry[0]);
      if (list === undefined) this.#byRun.set(entry[0], [entry]);
      else list.push(entry);
    }
  }

  get entries(): readonly GateEntry[] {
    return this.#entries;
  }

  /** A record's gate. */
  record(record: GatedRecord, by: GateBy): Gate {
    const { seat } = record;
    if (seat === null) return worstGate(record.runIds.map((id) => this.run(id)));
    const runId = record.runIds[0];
    if (runId === undefined) return "open";
    const version = record.scorecardVersion;
    const cards = (this.#byRun.get(runId) ?? []).filter((c) => (c[2] === null || c[2] === version) && (by === "run" || c[1] === false || c[1] === seat.agentKeyId));
    return worstGate(cards.map((c) => c[3]));
  }

  /** A run's gate where no seat is named: its cards of its latest known version (and those of unknown version). */
  run(runId: string): Gate {
    const cards = this.#byRun.get(runId) ?? [];
    const latest = Math.max(0, ...cards.map((c) => c[2] ?? 0));
    return worstGate(cards.filter((c) => c[2] === null || c[2] === latest).map((c) => c[3]));
  }

  /** Runs with at least one card of the answer `gate`, whichever version (the manifest's summary). */
  runsWith(gate: Gate): Set<string> {
    return new Set(this.#entries.filter((e) => e[3] === gate).map((e) => e[0]));
  }

  /** Cards of the answer `gate`. */
  count(gate: Gate): number {
    return this.#entries.filter((e) => e[3] === gate).length;
  }
}
