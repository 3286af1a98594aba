import { z } from "zod";
import { columnsOf } from "../schema/columns-of.js";
import { int, outcome, scenarioRef, winConditionText } from "./common.js";
import type { Format } from "./format.js";
import { VERSION_FIELDS } from "./format.js";
import { RECORD_RULES } from "./record-rules.js";

const step = z.object({ action_type: z.string(), content: z.string().nullable() });

const fields = {
  run_chosen: z.string(),
  run_rejected: z.string(),
  scenario: scenarioRef.extend({ win_conditions: z.array(winConditionText).optional() }),
  scoring_basis: z.object({ composite_delta: z.number(), objective_delta: z.number() }),
  seat_index: int(),
  flagged: z.boolean(),
  pairs: z.array(z.object({ index: int(), chosen: step, rejected: step, alignment: z.string() })),
  outcome: outcome.optional(),
};

/** DPO preference-pair record, `dpo_format_version` 1.0 (spec 4.10). */
export const dpoRecord = z.object({ dpo_format_version: z.literal("1.0"), ...fields });
export type DpoRecord = z.output<typeof dpoRecord>;

export const dpo: Format<typeof dpoRecord> = {
  name: "dpo",
  versionField: VERSION_FIELDS.dpo,
  version: "1.0",
  schema: dpoRecord,
  anyVersionSchema: z.object({ dpo_format_version: z.string(), ...fields }) as unknown as z.ZodType<DpoRecord>,
  // The RL paths, wherever a DPO record can carry them.
  untrustedPaths: ["outcome.dm_messages", "scenario.win_conditions[].description"],
  columns: columnsOf(dpoRecord),
  facts: RECORD_RULES.dpo.facts,
  check: RECORD_RULES.dpo.check,
};
