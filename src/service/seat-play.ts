import type { RunPlan } from "./run-plan.js";
import { SeededRandom } from "./seeded-random.js";

export type AwaitingKind = "your_turn" | "choice_point" | "vote" | "roll_request";

/** What a seat did at one DM turn. */
export interface SeatStep {
  /** 0-based; step `i` is DM turn `i + 1`. */
  readonly index: number;
  readonly kind: "action" | "blocked_or_idle";
  readonly action: { readonly action_type: string; readonly content: string | null } | null;
  readonly checksPassed: number;
  readonly checksFailed: number;
  /** Win conditions first met at this step. */
  readonly conditionsMet: readonly string[];
  /** Partial credit gained at this step, as a share of the maximum. */
  readonly progressDelta: number;
  readonly awaiting: AwaitingKind | null;
  readonly inCombat: boolean;
}

/** How one seat played a run: the judge's facts that do not change when the run is rescored. */
export interface SeatPlay {
  readonly steps: readonly SeatStep[];
  readonly actionCount: number;
  readonly totalChecks: number;
  readonly met: ReadonlySet<string>;
  readonly partialCredit: Readonly<Record<string, number>>;
  /** The seat's underlying skill, 1 to 5: trait means of every scorecard version scatter around it. */
  readonly skill: number;
}

/** The turns (1-based, inclusive) of the run's combat encounter, if it has one. */
export function combatWindow(seed: number, plan: RunPlan): [number, number] | null {
  const random = new SeededRandom(seed, "combat", plan.n);
  if (!random.chance(0.4)) return null;
  const start = random.int(2, Math.max(2, plan.turns - 3));
  return [start, Math.min(plan.turns, start + random.int(2, 4))];
}

/** How seat `seatIndex` played run `plan`, over all of its turns. */
export function seatPlay(seed: number, plan: RunPlan, seatIndex: number): SeatPlay {
  const random = new SeededRandom(seed, "seat-play", plan.n, seatIndex);
  // Slow agent generation makes some seats fall under the participation floors (spec 3.4).
  const propensity = random.chance(0.06) ? 0.1 + random.next() * 0.15 : 0.55 + random.next() * 0.4;
  const skill = 1.5 + random.next() * 3;
  const combat = combatWindow(seed, plan);
  const theme = plan.campaign.theme;

  const drafts = Array.from({ length: plan.turns }, (_, index) => {
    const turn = index + 1;
    const inCombat = combat !== null && turn >= combat[0] && turn <= combat[1];
    const awaiting = drawAwaiting(random, inCombat);
    const acted = random.chance(propensity);
    const action = acted ? drawAction(random, awaiting, theme.actions) : null;
    const checksPassed = acted ? random.weighted([5 - skill, 3, skill - 1]) : 0;
    const checksFailed = acted ? random.weighted([skill, 5 - skill]) : random.chance(0.15) ? 1 : 0;
    return { index, inCombat, awaiting, action, checksPassed, checksFailed, conditionsMet: [] as string[], progressDelta: 0 };
  });

  const actionSteps = drafts.filter((d) => d.action !== null);
  const conditions = plan.campaign.winConditions;
  const met = new Set<string>();
  const partialCredit: Record<string, number> = {};
  for (const condition of conditions) {
    const at = actionSteps.length > 0 ? random.pick(actionSteps) : null;
    const isMet = at !== null && random.chance(((skill - 1) / 4) * Math.min(1, propensity * 1.6));
    const credit = isMet ? 1 : at === null ? 0 : random.pick([0, 0.25, 0.5, 0.75]);
    partialCredit[condition.id] = credit;
    if (isMet) {
      met.add(condition.id);
      at?.conditionsMet.push(condition.id);
    }
    if (at !== null) at.progressDelta += credit / Math.max(1, conditions.length);
  }

  const steps = drafts.map((d): SeatStep => ({
    index: d.index,
    kind: d.action === null ? "blocked_or_idle" : "action",
    action: d.action,
    // A win condition met at a step is a check passed there: without this, a seat that met conditions on steps
    // of few checks reported `met_count` over `total_checks` (spec 2.7 counts met among the checks), about twice
    // a night in `evalshard demo`. Raised after every draw, so the rest of the world stays as it was.
    checksPassed: Math.max(d.checksPassed, d.conditionsMet.length),
    checksFailed: d.checksFailed,
    conditionsMet: d.conditionsMet,
    progressDelta: round4(d.progressDelta),
    awaiting: d.awaiting,
    inCombat: d.inCombat,
  }));
  return {
    steps,
    actionCount: actionSteps.length,
    totalChecks: steps.reduce((sum, s) => sum + s.checksPassed + s.checksFailed, 0),
    met,
    partialCredit,
    skill,
  };
}

/** Gate precedence (spec 2.5) is moot here: at most one gate is drawn per turn. */
function drawAwaiting(random: SeededRandom, inCombat: boolean): AwaitingKind | null {
  const u = random.next();
  if (u < 0.06) return "choice_point";
  if (u < 0.1) return "roll_request";
  if (u < 0.14) return "vote";
  return inCombat && u < 0.6 ? "your_turn" : null;
}

function drawAction(random: SeededRandom, awaiting: AwaitingKind | null, lines: readonly string[]) {
  switch (awaiting) {
    case "choice_point":
      return { action_type: "choice", content: null };
    case "roll_request":
      return { action_type: "roll", content: null };
    case "vote":
      return { action_type: "vote", content: random.pick(["Aye.", "I vote against.", "I vote for the compromise."]) };
    case "your_turn":
      return { action_type: "combat_action", content: random.chance(0.5) ? "Stand down, nobody needs to get hurt!" : null };
    default:
      return { action_type: random.pick(["speak", "speak", "act", "speak_and_act"]), content: random.pick(lines) };
  }
}

/** The options a `choice_point` offers (the status route shows the same). */
export const CHOICE_OPTIONS = ["Accept the offer", "Make a counter-offer", "Ask for time to consider"] as const;

/**
 * The player message an action posts in the transcript. Mechanical actions export `content: null`, but
 * they still post a message: every action counts as a player message for the participation gate (spec 3.4).
 */
export function playerMessage(step: SeatStep): string | null {
  const action = step.action;
  if (action === null) return null;
  if (action.content !== null) return action.content;
  switch (action.action_type) {
    case "choice":
      return `(chooses: ${CHOICE_OPTIONS[step.index % CHOICE_OPTIONS.length] ?? CHOICE_OPTIONS[0]})`;
    case "roll":
      return "(rolls persuasion: 1d20+3)";
    default:
      return "(attacks)";
  }
}

export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
