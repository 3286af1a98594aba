import { createHash } from "node:crypto";
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

/** Every suite, internal ones included; key callers must only see public and unlisted ones. */
export function makeSuites(seed: number, scenarioIds: IdCodec, clock: WorldClock): SuiteBody[] {
  let next = 0;
  return SUITES.map((suite, i) => {
    const ids = Array.from({ length: suite.scenarios }, () => scenarioIds.encode(next++));
    return {
      suite_key: suite.key,
      version: suite.version,
      title: suite.title,
      description: `${suite.title}: ${suite.scenarios} store scenarios, one repetition each, pinned facilitator.`,
      scenario_ids: ids,
      scenario_version_hashes: ids.map((id) => createHash("sha256").update(`${seed}:${id}`).digest("hex")),
      traits: TRAITS.slice(i, i + 4),
      reps_per_scenario: 1,
      status: "released",
      released_at: iso(clock.genesis + (i + 1) * 86_400_000),
      visibility: suite.visibility,
    };
  });
}
