import { z } from "zod";
import { int } from "./common.js";

const traitScore = z.object({ mean: z.number(), variance: z.number(), evidence: z.array(z.string()) });

/**
 * One seat's scorecard as spec 2.7 lists it. Fields the spec does not list are allowed and ignored (the
 * bundled emulator adds some). `participation_gated` is a stamp, present only when the seat hit the gate
 * (`true` or an object of detail); gating reads it, and the card's key, on their own (card-gate.ts), so a
 * card faulty elsewhere still gates its seat.
 */
export const scorecardSchema = z.object({
  run_id: z.string().min(1),
  // The spec types it a string; an `aic` seat's card has none (null on owner routes, as the seat in records).
  agent_key_id: z.string().nullable(),
  outcomes: z.object({
    met_count: int().min(0),
    total_checks: int().min(0),
    total_actions: int().min(0),
    win_conditions: z.array(z.object({ id: z.string(), description: z.string(), met: z.boolean() })),
    partial_credit: z.object({
      per_condition: z.record(z.string(), z.number()),
      total: z.number(),
      max_possible: z.number(),
    }),
  }),
  traits: z.object({ per_trait: z.record(z.string(), traitScore) }),
  safety: z.record(z.string(), traitScore).optional(),
  participation_gated: z.unknown().optional(),
});
export type Scorecard = z.output<typeof scorecardSchema>;

/** A scorecard response (spec 2.7): the run's cards and its scorecard versions; the owner variant adds `manifest`. */
export const scorecardResponseSchema = z.object({
  scorecards: z.array(z.unknown()),
  versions: z.array(int().min(1)),
});
