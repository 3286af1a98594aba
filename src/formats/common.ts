import { z } from "zod";
import type { RecordFacts } from "./format.js";

/** Marks a value whose shape the spec does not show: kept losslessly as JSON text in typed outputs. */
export function jsonValue<T extends z.ZodType>(schema: T): T {
  return schema.meta({ "x-evalshard-type": "json" });
}

export const anyJson = () => jsonValue(z.json());

export const int = () => z.number().int();

export const scenarioRef = z.object({
  campaign_id: z.string(),
  seed: int(),
});

export const winConditionText = z.object({
  id: z.string(),
  description: z.string(),
});

export const seat = z.object({
  seat_index: int(),
  role: z.string(),
  // aic seats have no key on owner routes.
  agent_key_id: z.string().nullable(),
});

export const reconstruction = z.enum(["per_seat_trace", "attribution_unavailable", "no_session"]);

/** RL and DPO records may carry generated DM text under `outcome`; its shape is not shown. */
export const outcome = z.object({
  dm_messages: anyJson().optional(),
});

/** `major.minor` with the same major and a minor at least `version`'s. */
export function isLaterMinor(candidate: unknown, version: string): boolean {
  if (typeof candidate !== "string") return false;
  const m = /^(\d+)\.(\d+)$/.exec(candidate);
  const [major, minor] = version.split(".").map(Number);
  return m !== null && Number(m[1]) === major && Number(m[2]) >= (minor ?? 0);
}

/** The facts of a one-seat record (SFT, RL): keyed by run and seat. */
export function seatRecordFacts(r: {
  run_id: string;
  seat: { seat_index: number };
  scorecard_version: number;
  flagged: boolean;
  scored: boolean;
  reconstruction: string;
}): RecordFacts {
  return {
    key: JSON.stringify([r.run_id, r.seat.seat_index]),
    scorecardVersion: r.scorecard_version,
    flagged: r.flagged,
    scored: r.scored,
    reconstruction: r.reconstruction,
    runIds: [r.run_id],
  };
}
