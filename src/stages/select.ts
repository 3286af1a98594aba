import { ConfigError } from "../core/errors.js";
import type { Decision } from "../core/flow.js";
import type { FormatName, RecordFacts } from "../formats/format.js";
import type { ScoreBook } from "../formats/scorecard-book.js";
import { ownScoreOf } from "../formats/seat-score.js";
import type { SeatScore } from "../formats/seat-score.js";
import type { SelectionPlan } from "./select-plan.js";

/** What a selection rule is given besides the plan. */
export interface SelectContext {
  readonly format: FormatName;
  /** Valid scorecards (convert's `--scorecards`); RL and DPO thresholds need them. */
  readonly scores?: ScoreBook | undefined;
  /** With `--top-k-per-scenario`: the keys that made their scenario's top k (`topKeys`, from the first read). */
  readonly topKeys?: ReadonlySet<string>;
}

/** A record's score for the thresholds: its own (SFT), its seat's scorecard (RL) or its chosen run's (DPO). */
export type ScoreOf = (facts: RecordFacts, record: Readonly<Record<string, unknown>>) => SeatScore | null | undefined;

/** Whether the plan asks a rule that reads scores. */
export function needsScores(selection: SelectionPlan): boolean {
  return scoreFlagsAsked(selection).length > 0;
}

/** The flags of the rules asked that read scores, as the user wrote them. */
export function scoreFlagsAsked(selection: SelectionPlan): string[] {
  return [
    selection.minComposite === null ? null : "--min-composite",
    selection.minObjectiveRate === null ? null : "--min-objective-rate",
    selection.topKPerScenario === null ? null : "--top-k-per-scenario",
  ].filter((f): f is string => f !== null);
}

/**
 * Throws a ConfigError (exit 2) for a selection the format cannot answer: a threshold without scores
 * (never a silent no-op), or a seat rule on DPO pairs, which name no seat's key or role.
 */
export function checkSelection(selection: SelectionPlan, context: Pick<SelectContext, "format" | "scores">): void {
  const asked = scoreFlagsAsked(selection);
  if (asked.length > 0 && context.format !== "sft" && context.scores === undefined) {
    throw new ConfigError(`${asked.join(", ")} needs scores: ${context.format.toUpperCase()} records carry none; pass --scorecards with the runs' scorecards`);
  }
  checkSeatRules(selection, context.format);
}

/** Throws a ConfigError (exit 2) for a seat rule on DPO pairs, which name no seat's key or role and are not one seat. */
export function checkSeatRules(selection: SelectionPlan, format: FormatName): void {
  if (format !== "dpo") return;
  const seatRules = [selection.agentKeys === null ? null : "--agent-key", selection.roles === null ? null : "--role", selection.topKPerScenario === null ? null : "--top-k-per-scenario"].filter((f) => f !== null);
  if (seatRules.length > 0) throw new ConfigError(`${seatRules.join(", ")} cannot apply to DPO pairs: a pair names a seat index only, not its agent key or role, and is not one seat`);
}

/** The score function of a format: SFT's own scores, else the scorecards'. */
export function scoreOf(format: FormatName, scores: ScoreBook | undefined): ScoreOf {
  if (format === "sft") return (_facts, record) => ownScoreOf(format, record);
  return (facts) => {
    if (scores === undefined) return undefined;
    // DPO: the chosen run's score, the run the pair teaches towards.
    if (facts.seat === null) return scores.run(facts.runIds[0] as string);
    return scores.seat({ runId: facts.runIds[0] as string, agentKeyId: facts.seat.agentKeyId, version: facts.scorecardVersion });
  };
}

/**
 * The selection's rule on one record, in order: `adversary_seat`, `not_selected`, then the thresholds
 * (`no_scorecard` when the seat has none, `below_threshold`), then `not_top_k`. A DPO pair has no seat to
 * be an adversary: the seat rule keeps it (docs/selection.md).
 */
export function selectRule(selection: SelectionPlan, context: SelectContext): SelectRule {
  checkSelection(selection, context);
  const keys = selection.agentKeys === null ? null : new Set(selection.agentKeys);
  const roles = selection.roles === null ? null : new Set(selection.roles);
  const campaigns = selection.campaigns === null ? null : new Set(selection.campaigns);
  const { minComposite, minObjectiveRate } = selection;
  const thresholds = minComposite !== null || minObjectiveRate !== null;
  const top = selection.topKPerScenario === null ? null : context.topKeys;
  if (top === undefined) throw new Error("Internal error: --top-k-per-scenario without the first read's ranking");
  return (facts, score) => {
    const seat = facts.seat;
    if (selection.seats === "agent" && seat !== null && seat.agentKeyId === null) return "adversary_seat";
    if (keys !== null && (seat === null || seat.agentKeyId === null || !keys.has(seat.agentKeyId))) return "not_selected";
    if (roles !== null && (seat === null || !roles.has(seat.role))) return "not_selected";
    if (campaigns !== null && !campaigns.has(facts.campaignId)) return "not_selected";
    if (thresholds) {
      const s = score();
      if (s === undefined) return "no_scorecard";
      if (s === null) return "below_threshold";
      if (minComposite !== null && (s.composite === null || s.composite < minComposite)) return "below_threshold";
      if (minObjectiveRate !== null && s.objectiveRate < minObjectiveRate) return "below_threshold";
    }
    if (top !== null && !top.has(facts.key)) return "not_top_k";
    return "keep";
  };
}

/** A selection rule: a record's facts, and its score asked for only when a threshold needs it. */
export type SelectRule = (facts: RecordFacts, score: () => SeatScore | null | undefined) => Decision;
