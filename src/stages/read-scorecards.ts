import { scorecardResponseSchema, scorecardSchema } from "../formats/scorecard.js";
import type { ScoreBook } from "../formats/scorecard-book.js";
import { ScoreBookWriter } from "../formats/score-book-writer.js";
import { cardGate } from "../formats/card-gate.js";
import { GateBook } from "../formats/gate-book.js";
import type { GateEntry } from "../formats/gate-book.js";
import { cardSeatScore } from "../formats/seat-score.js";
import { readJsonValues } from "../sources/scorecard-file.js";
import { describeIssues } from "./describe-issues.js";
import { isRecord } from "../core/is-record.js";

/** A scorecard that belongs to no run (no readable `run_id`, or a response that is not one): never read. */
export interface QuarantinedScorecard {
  /** `line 3`, `the file`, with the card's index inside a response or array. */
  readonly where: string;
  readonly reason: "invalid_scorecard";
  readonly detail: string;
}

/**
 * A card that was read, with a fault the manifest warns about. `unreadable_gating`: its stamp or its
 * `agent_key_id` cannot be read, so the seats it may belong to are dropped; `not_scored`: it fails spec
 * 2.7 elsewhere, so it gates but gives no score.
 */
export interface ScorecardWarning {
  readonly where: string;
  readonly reason: "unreadable_gating" | "not_scored";
  readonly run_id: string;
  /** The card's key as found (a JSON text, or `absent`). */
  readonly agent_key_id: string;
  /** The field at fault, e.g. `participation_gated` or `outcomes.partial_credit`. */
  readonly field: string;
  readonly detail: string;
}

export interface Scorecards {
  /** Scores of the cards that pass spec 2.7 (selection, ranking). */
  readonly book: ScoreBook;
  /** Gating of every card that names a run, whatever else it lacks. */
  readonly gates: GateBook;
  readonly quarantined: readonly QuarantinedScorecard[];
  readonly warnings: readonly ScorecardWarning[];
}

/**
 * Scorecards from parsed JSON values (with where each came from): responses `{scorecards, versions}`,
 * bare cards, or arrays of either. A response's cards describe its latest version (`max(versions)`, the
 * one the service answers with); a bare card's version is unknown.
 */
export function readScorecards(values: Iterable<[unknown, string]>): Scorecards {
  const book = new ScoreBookWriter();
  const gates: GateEntry[] = [];
  const quarantined: QuarantinedScorecard[] = [];
  const warnings: ScorecardWarning[] = [];
  const card = (value: unknown, where: string, version: number | null): void => {
    const gate = cardGate(value);
    if (gate.runId === null) {
      quarantined.push({ where, reason: "invalid_scorecard", detail: "run_id: expected a non-empty string, so the card belongs to no run" });
      return;
    }
    // Gating reads the run, the key and the stamp alone: a card faulty elsewhere still gates (issue 39).
    gates.push([gate.runId, gate.seat, version, gate.gate]);
    const key = keyText(value);
    if (gate.unreadable !== null) {
      const { field, found } = gate.unreadable;
      warnings.push({ where, reason: "unreadable_gating", run_id: gate.runId, agent_key_id: key, field, detail: `${field} is ${found}: expected ${field === "participation_gated" ? "absent, null, false, true or an object" : "a non-empty string or null"}` });
    }
    const parsed = scorecardSchema.safeParse(value);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const field = first === undefined || first.path.length === 0 ? "(card)" : first.path.map(String).join(".");
      warnings.push({ where, reason: "not_scored", run_id: gate.runId, agent_key_id: key, field, detail: describeIssues(parsed.error.issues) });
      return;
    }
    const c = parsed.data;
    const score = cardSeatScore(c);
    book.add([c.run_id, c.agent_key_id, version, score.composite, score.objectiveRate], score.traits);
  };
  const collect = (value: unknown, where: string): void => {
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) collect(v, `${where} [${i}]`);
      return;
    }
    if (isRecord(value) && "scorecards" in value) {
      const response = scorecardResponseSchema.safeParse(value);
      if (!response.success) {
        quarantined.push({ where, reason: "invalid_scorecard", detail: `a scorecard response: ${describeIssues(response.error.issues)}` });
        return;
      }
      const { scorecards, versions } = response.data;
      const version = versions.length === 0 ? null : Math.max(...versions);
      for (const [i, v] of scorecards.entries()) card(v, `${where} scorecards[${i}]`, version);
      return;
    }
    card(value, where, null);
  };
  for (const [value, where] of values) collect(value, where);
  return { book: book.book(), gates: new GateBook(gates), quarantined, warnings };
}

/**
 * Reads a scorecards file (see `readJsonValues`): every card that names a run is read for gating; one that
 * fails spec 2.7 elsewhere gives no score and is warned about; one that names no run is quarantined.
 */
export async function readScorecardFile(path: string): Promise<Scorecards> {
  return readScorecards(await readJsonValues(path));
}

/** The runs with at least one card stamped gated (`true` or an object): a summary, gating itself is per seat. */
export async function readGatedRuns(path: string): Promise<Set<string>> {
  return (await readScorecardFile(path)).gates.runsWith("gated");
}

function keyText(card: unknown): string {
  const key = isRecord(card) ? card.agent_key_id : undefined;
  return key === undefined ? "absent" : (JSON.stringify(key) ?? String(key));
}
