import { z } from "zod";
import { columnsOf } from "../schema/columns-of.js";
import { anyJson, int, reconstruction, scenarioRef, seat } from "./common.js";
import { RECORD_RULES } from "./record-rules.js";
import type { Format } from "./format.js";
import { VERSION_FIELDS } from "./format.js";

const traitScore = z.object({
  mean: z.number(),
  variance: z.number(),
  evidence: z.array(z.string()),
});

const fields = {
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
};

/** SFT fine-tuning record, `format_version` 1.1 (spec 4.8). */
export const sftRecord = z.object({ format_version: z.literal("1.1"), ...fields });
export type SftRecord = z.output<typeof sftRecord>;

export const sft: Format<typeof sftRecord> = {
  name: "sft",
  versionField: VERSION_FIELDS.sft,
  version: "1.1",
  schema: sftRecord,
  anyVersionSchema: z.object({ format_version: z.string(), ...fields }) as unknown as z.ZodType<SftRecord>,
  // `transcript` holds the same generated DM and player text the RL section calls untrusted.
  untrustedPaths: ["coaching.guidance", "scores.win_conditions[].description", "transcript"],
  columns: columnsOf(sftRecord),
  facts: RECORD_RULES.sft.facts,
  check: RECORD_RULES.sft.check,
};
