import { sha256Hex } from "../core/sha256-hex.js";
import type { Campaign } from "./campaigns.js";
import type { IdCodec } from "./opaque-id.js";
import { TRAITS } from "./scenario-themes.js";
import { iso, type WorldClock } from "./world-clock.js";

/** A benchmark suite (spec 2.10). */
export interface SuiteBody {
  suite_key: string;
  version: number;
  title: string;
  description: string;
  scenario_ids: string[];
  scenario_version_hashes: string[];
  traits: string[];
  reps_per_scenario: number;
  status: "released";
  released_at: string;
  visibility: "public" | "unlisted" | "internal";
}

const SUITES = [
  { key: "negotiation-core", version: 2, title: "Negotiation core", visibility: "public", scenarios: 6 },
  { key: "adversarial-pressure", version: 1, title: "Adversarial pressure", visibility: "unlisted", scenarios: 4 },
  { key: "internal-regression", version: 3, title: "Internal regression", visibility: "internal", scenarios: 3 },
] as const;

/**
 * Played suite scenarios (issue 35, `benchmarkRuns`): which of the first account's campaigns each suite pins.
 * `id`: pinned as it is (its own id and hash); `copy`: the campaign is a copy of a store scenario the suite
 * pins (`POST /api/scenarios/{id}/copy` keeps the content, so the hash is the same, under another id).
 * The fourth suite is released one epoch after the world starts, between two nights.
 */
const PLAYED: readonly { readonly campaign: number; readonly as: "id" | "copy" }[] = [
  { campaign: 1, as: "id" },
  { campaign: 2, as: "copy" },
  { campaign: 3, as: "id" },
  { campaign: 4, as: "id" },
];
const LATE_SUITE = { key: "late-release", version: 1, title: "Late release", visibility: "public", scenarios: 2 } as const;

/**
 * Every suite, internal ones included; key callers must only see public and unlisted ones, released by
 * now. `played`: the first account's campaigns, when some runs are to be on suite scenarios (issue 35);
 * otherwise no run is (the suites pin store scenarios the world never plays).
 */
export function makeSuites(seed: number, scenarioIds: IdCodec, clock: WorldClock, played?: readonly Campaign[]): SuiteBody[] {
  let next = 0;
  const list = played === undefined ? SUITES : [...SUITES, LATE_SUITE];
  return list.map((suite, i) => {
    const ids = Array.from({ length: suite.scenarios }, () => scenarioIds.encode(next++));
    const hashes = ids.map((id) => sha256Hex(`${seed}:${id}`));
    const pin = played === undefined ? undefined : PLAYED[i];
    // A small world has few campaigns: a suite whose campaign it lacks pins only store scenarios.
    const campaign = pin === undefined ? undefined : played?.[pin.campaign];
    if (pin !== undefined && campaign !== undefined) {
      // The last scenario of the suite is the one played: as itself, or through a copy of it.
      if (pin.as === "id") ids[ids.length - 1] = campaign.campaignId;
      hashes[hashes.length - 1] = campaign.scenarioVersionHash;
    }
    return {
      suite_key: suite.key,
      version: suite.version,
      title: suite.title,
      description: `${suite.title}: ${suite.scenarios} store scenarios, one repetition each, pinned facilitator.`,
      scenario_ids: ids,
      scenario_version_hashes: hashes,
      traits: TRAITS.slice(i, i + 4),
      reps_per_scenario: 1,
      status: "released",
      released_at: iso(suite === LATE_SUITE ? clock.at(1, 30) : clock.genesis + (i + 1) * 86_400_000),
      visibility: suite.visibility,
    };
  });
}
