import { z } from "zod";
import { anyJson, int, reconstruction, scenarioRef, seat } from "./common.js";
import { defineFormat } from "./define-format.js";
import { RECORD_RULES } from "./record-rules.js";

const traitScore = z.object({
  mean: z.number(),
  variance: z.number(),
  evidence: z.array(z.string()),
});

/** SFT fine-tuning record, `format_version` 1.1 (spec 4.8). */
export const sft = defineFormat({
  name: "sft",
  version: "1.1",
  fields: {
    run_id: z.string(),
    scenario: scenarioRef,
    seat,
    scored: z.boolean(),
    flagged: z.boolean(),
    scorecard_version: int().min(0),
    reconstruction,
    // An unscored run has nothing to report.
    scores: z
      .object({
        per_trait: z.record(z.string(), traitScore),
        win_conditions: z.array(z.object({ id: z.string(), description: z.string(), met: z.boolean() })),
        outcomes: z.object({ met_count: int(), total_checks: int(), total_actions: int() }),
      })
      .nullable(),
    coaching: z.object({ weak_traits: z.array(z.string()), guidance: z.string() }).nullable(),
    // Step shape: "not shown" in the spec.
    trace_steps: z.array(anyJson()),
    // Owner routes only.
    manifest: z
      .object({
        judge: z.object({ prompt_hash: z.string(), model: z.string() }),
        scenario_version_hash: z.string(),
      })
      .optional(),
    // Owner single-run route, on request; message shape "not shown".
    transcript: anyJson().optional(),
  },
  // `transcript` holds the same generated DM and player text the RL section calls untrusted.
  untrustedPaths: ["coaching.guidance", "scores.win_conditions[].description", "transcript"],
  rules: RECORD_RULES.sft,
});

export const sftRecord = sft.schema;
export type SftRecord = z.output<typeof sftRecord>;
