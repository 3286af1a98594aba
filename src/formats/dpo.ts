import { z } from "zod";
import { int, outcome, scenarioRef, winConditionText } from "./common.js";
import { defineFormat } from "./define-format.js";
import { RECORD_RULES } from "./record-rules.js";

const step = z.object({ action_type: z.string(), content: z.string().nullable() });

/** DPO preference-pair record, `dpo_format_version` 1.0 (spec 4.10). */
export const dpo = defineFormat({
  name: "dpo",
  version: "1.0",
  fields: {
    run_chosen: z.string(),
    run_rejected: z.string(),
    scenario: scenarioRef.extend({ win_conditions: z.array(winConditionText).optional() }),
    scoring_basis: z.object({ composite_delta: z.number(), objective_delta: z.number() }),
    seat_index: int(),
    flagged: z.boolean(),
    pairs: z.array(z.object({ index: int(), chosen: step, rejected: step, alignment: z.string() })),
    outcome: outcome.optional(),
  },
  // The RL paths, wherever a DPO record can carry them.
  untrustedPaths: ["outcome.dm_messages", "scenario.win_conditions[].description"],
  rules: RECORD_RULES.dpo,
});

export const dpoRecord = dpo.schema;
export type DpoRecord = z.output<typeof dpoRecord>;
