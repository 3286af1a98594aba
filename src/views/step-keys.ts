import type { RlRecord, RlTuple } from "../formats/rl.js";
import type { Field } from "../schema/column-type.js";

/** The keys that say which step a TRL row comes from. A type, so a row is assignable to JSON. */
export type StepKeys = { run_id: string; seat_index: number; step_index: number; campaign_id: string };

export const STEP_KEY_COLUMNS: readonly Field[] = [
  { name: "run_id", type: { kind: "string" }, nullable: false },
  { name: "seat_index", type: { kind: "int64" }, nullable: false },
  { name: "step_index", type: { kind: "int64" }, nullable: false },
  { name: "campaign_id", type: { kind: "string" }, nullable: false },
];

/** The keys of `tuple`'s row, a step of `record`. */
export function stepKeys(record: RlRecord, tuple: RlTuple): StepKeys {
  return { run_id: record.run_id, seat_index: record.seat.seat_index, step_index: tuple.index, campaign_id: record.scenario.campaign_id };
}
