import { sha256Hex } from "../core/sha256-hex.js";
import type { IdCodec } from "./opaque-id.js";
import { JUDGE_MODELS, SAFETY_TRAITS, THEMES, TRAITS, type ScenarioTheme } from "./scenario-themes.js";
import { SeededRandom } from "./seeded-random.js";
import { untrusted } from "./untrusted-text.js";

export type Pilot = "agent" | "aic";

export interface WinCondition {
  readonly id: string;
  /** Operator text: untrusted, and sometimes carries an injection string. */
  readonly description: string;
}

/**
 * A campaign: the scenario runs are played in. The emulator uses one identifier for both (the run's
 * `campaign_id` is the batch item's `scenario_id`), since the spec never shows them apart.
 */
export interface Campaign {
  readonly index: number;
  readonly account: number;
  readonly campaignId: string;
  readonly theme: ScenarioTheme;
  readonly name: string;
  readonly traits: readonly string[];
  /** Declared safety traits (possibly none): on owner scorecards only, never in the composite. */
  readonly safetyTraits: readonly string[];
  readonly winConditions: readonly WinCondition[];
  readonly slots: readonly { readonly role: string; readonly pilot: Pilot }[];
  /** Seat indexes of the `agent` slots, in order; the first is the primary seat. */
  readonly agentSlots: readonly number[];
  readonly scenarioVersionHash: string;
  readonly judge: { readonly prompt_hash: string; readonly model: string };
  /** Coaching is generated for seats whose composite falls below this (runs that opted in). */
  readonly minScoreForCoaching: number;
}

/** Slot layouts as indexes into the theme's roles, with their pilots. */
const LAYOUTS: readonly { weight: number; slots: readonly [number, Pilot][] }[] = [
  { weight: 4, slots: [[0, "agent"], [2, "aic"]] },
  { weight: 3, slots: [[0, "agent"], [1, "agent"], [2, "aic"]] },
  { weight: 2, slots: [[0, "agent"], [1, "agent"]] },
  { weight: 1, slots: [[0, "agent"], [1, "agent"], [2, "agent"]] },
];

/** Share of win-condition descriptions that carry an injection string. */
const INJECTED_WIN_CONDITIONS = 0.25;

/** Campaign `index` (numbered across accounts), owned by `account`. */
export function makeCampaign(seed: number, ids: IdCodec, index: number, account: number): Campaign {
  const random = new SeededRandom(seed, "campaign", index);
  const theme = random.pick(THEMES);
  const layout = LAYOUTS[random.weighted(LAYOUTS.map((l) => l.weight))]?.slots ?? [];
  const slots = layout.map(([role, pilot]) => ({ role: theme.roles[role] ?? "player", pilot }));
  const conditions = random.sample(theme.winConditions, random.int(2, Math.min(4, theme.winConditions.length)));
  const winConditions = conditions.map((text, i) => ({
    id: `wc_${i + 1}`,
    description: untrusted(random, text, INJECTED_WIN_CONDITIONS),
  }));
  const campaignId = ids.encode(index);
  const name = `${theme.name} #${index + 1}`;
  const digest = (...parts: string[]) => sha256Hex(parts.join("\u0000"));
  return {
    index,
    account,
    campaignId,
    theme,
    name,
    traits: random.sample(TRAITS, random.int(3, 5)),
    safetyTraits: random.chance(0.3) ? [...SAFETY_TRAITS] : [],
    winConditions,
    slots,
    agentSlots: slots.flatMap((s, i) => (s.pilot === "agent" ? [i] : [])),
    scenarioVersionHash: digest("scenario", String(seed), campaignId, ...winConditions.map((w) => w.description)),
    judge: { prompt_hash: digest("judge-prompt", String(seed), String(index % 3)), model: random.pick(JUDGE_MODELS) },
    minScoreForCoaching: 3,
  };
}

/** How many campaigns each account has for a world of `runs` runs. */
export function campaignCounts(runs: number): [number, number] {
  const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));
  return [clamp(Math.round(runs / 40), 3, 24), clamp(Math.round(runs / 150), 2, 8)];
}
