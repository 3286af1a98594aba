import type { RlRecord, RlTuple } from "../formats/rl.js";
import type { Field } from "../schema/column-type.js";

/** The keys that say which step a TRL row comes from. A type, so a row is assignable to JSON. */
export type StepKeys = { run_id: string; seat_index: number; step_index: number; campaign_id: string };

/** The keys that say which seat episode a row comes from (`trl-messages`, `trl-stepwise`). */
export type EpisodeKeys = Omit<StepKeys, "step_index">;

const RUN_ID: Field = { name: "run_id", type: { kind: "string" }, nullable: false };
const SEAT_INDEX: Field = { name: "seat_index", type: { kind: "int64" }, nullable: false };
const CAMPAIGN_ID: Field = { name: "campaign_id", type: { kind: "string" }, nullable: false };

export const STEP_KEY_COLUMNS: readonly Field[] = [RUN_ID, SEAT_INDEX, { name: "step_index", type: { kind: "int64" }, nullable: false }, CAMPAIGN_ID];
export const EPISODE_KEY_COLUMNS: readonly Field[] = [RUN_ID, SEAT_INDEX, CAMPAIGN_ID];

/** The keys of `tuple`'s row, a step of `record`. */
export function stepKeys(record: RlRecord, tuple: RlTuple): StepKeys {
  return { run_id: record.run_id, seat_index: record.seat.seat_index, step_index: tuple.index, campaign_id: record.scenario.campaign_id };
}

/** The keys of the row of `record`'s seat episode. */
export function episodeKeys(record: RlRecord): EpisodeKeys {
  return { run_id: record.run_id, seat_index: record.seat.seat_index, campaign_id: record.scenario.campaign_id };
}
