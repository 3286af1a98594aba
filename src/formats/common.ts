import { z } from "zod";

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
