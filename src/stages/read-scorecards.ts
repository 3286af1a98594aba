import { scorecardResponseSchema, scorecardSchema } from "../formats/scorecard.js";
import { ScoreBook } from "../formats/scorecard-book.js";
import type { ScoreEntry } from "../formats/scorecard-book.js";
import { seatScoreOf } from "../formats/seat-score.js";
import { readJsonValues } from "../sources/scorecard-file.js";
import { describeIssues } from "./describe-issues.js";

/** A scorecard that failed spec 2.7's schema: where it was and why. Never trusted, never read for gating or scores. */
export interface QuarantinedScorecard {
  /** `line 3`, `the file`, with the card's index inside a response or array. */
  readonly where: string;
  readonly reason: "invalid_scorecard";
  readonly detail: string;
}

export interface Scorecards {
  readonly book: ScoreBook;
  readonly quarantined: readonly QuarantinedScorecard[];
}

/**
 * Scorecards from parsed JSON values (with where each came from): responses `{scorecards, versions}`,
 * bare cards, or arrays of either. A response's cards describe its latest version (`max(versions)`, the
 * one the service answers with); a bare card's version is unknown.
 */
export function readScorecards(values: Iterable<[unknown, string]>): Scorecards {
  const entries: ScoreEntry[] = [];
  const quarantined: QuarantinedScorecard[] = [];
  const card = (value: unknown, where: string, version: number | null): void => {
    const parsed = scorecardSchema.safeParse(value);
    if (!parsed.success) {
      quarantined.push({ where, reason: "invalid_scorecard", detail: describeIssues(parsed.error.issues) });
      return;
    }
    const c = parsed.data;
    const score = seatScoreOf(c.traits.per_trait, c.outcomes);
    entries.push([c.run_id, c.agent_key_id, version, score.composite, score.objectiveRate, c.participation_gated === true]);
  };
  const collect = (value: unknown, where: string): void => {
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) collect(v, `${where} [${i}]`);
      return;
    }
    if (value !== null && typeof value === "object" && "scorecards" in value) {
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
  return { book: new ScoreBook(entries), quarantined };
}

/**
 * Reads a scorecards file (see `readJsonValues`): every card is checked against spec 2.7; a card that
 * fails is quarantined with its reason (counted, shown in the manifest) and never read.
 */
export async function readScorecardFile(path: string): Promise<Scorecards> {
  return readScorecards(await readJsonValues(path));
}

/** The runs with at least one valid scorecard stamped `participation_gated: true` (gating itself is per seat). */
export async function readGatedRuns(path: string): Promise<Set<string>> {
  return (await readScorecardFile(path)).book.gatedRuns();
}
