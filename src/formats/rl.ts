import { z } from "zod";
import { anyJson, int, outcome, reconstruction, scenarioRef, seat, winConditionText } from "./common.js";
import { defineFormat } from "./define-format.js";
import { RECORD_RULES } from "./record-rules.js";
import { checkTrajectory } from "./rl-rules.js";

const tuple = z.object({
  index: int(),
  kind: z.enum(["action", "blocked_or_idle"]),
  state: z.object({
    // Observation shape: "not shown" in the spec.
    observation: anyJson(),
    transcript_window: z.array(z.object({ role: z.string(), content: z.string() })),
  }),
  // A blocked or idle step may have taken no action.
  action: z.object({ action_type: z.string(), content: z.string().nullable() }).nullable(),
  reward: z.object({
    checks_passed: int(),
    checks_failed: int(),
    conditions_met: z.array(z.string()),
    scalar_reward: z.number(),
    progress_delta: z.number(),
    terminal_reward: z.number().nullable(),
  }),
});

/** RL trajectory record, `rl_format_version` 1.0 (spec 4.9). */
export const rl = defineFormat({
  name: "rl",
  version: "1.0",
  fields: {
    run_id: z.string(),
    // win_conditions is not in the record's field list but the spec names its description untrusted.
    scenario: scenarioRef.extend({ win_conditions: z.array(winConditionText).optional() }),
    seat,
    scored: z.boolean(),
    flagged: z.boolean(),
    scorecard_version: int().min(0),
    reconstruction,
    tuples: z.array(tuple),
    outcome: outcome.optional(),
  },
  untrustedPaths: [
    "tuples[].state.transcript_window[].content",
    "outcome.dm_messages",
    "scenario.win_conditions[].description",
  ],
  rules: RECORD_RULES.rl,
});

export const rlRecord = rl.schema;
export type RlRecord = z.output<typeof rlRecord>;
export type RlTuple = z.output<typeof tuple>;

export { checkTrajectory };
