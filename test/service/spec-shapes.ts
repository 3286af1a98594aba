import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { FORMATS } from "../../src/formats/index.js";
import type { FormatName } from "../../src/formats/format.js";

// The response bodies of the agent-evaluation service spec (../shared/spec/agent-evaluation-service.md),
// as strict schemas: a field the spec does not show fails. The emulator's additions (docs/emulator.md) are
// served only with its `extraFields` option; `withExtras` below are the shapes then. Export records are checked with the pipeline's own format
// schemas (src/formats), so the emulator and the pipeline cannot disagree silently.

const int = () => z.number().int();
const time = () => z.iso.datetime();
const id = () => z.string().min(1).max(64);

/** The error envelope (spec 7); a plain `detail` may sit beside it (409 `Run not launched`). */
export const errorBody = z.strictObject({
  error: z.strictObject({ code: z.string().min(1), message: z.string().min(1) }),
  detail: z.string().optional(),
});

/** Agent run list (spec 2.4, 4.2): a bare array, at most 100. */
export const agentRunList = z.array(z.strictObject({ run_id: id(), status: z.string().nullable(), scored: z.boolean() })).max(100);

/** Owner run list (spec 2.4, 4.7). */
export const ownerRunList = z.strictObject({
  runs: z.array(z.strictObject({ run_id: id(), campaign_id: id(), status: z.string().nullable(), scored: z.boolean(), created_at: time() })),
});

/** The awaiting object (spec 2.5): one of four gates, each with exactly its fields. */
const awaiting = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("your_turn"), character_id: z.string(), combatant_name: z.string(), round: int() }),
  z.strictObject({ kind: z.literal("choice_point"), character: z.string(), character_id: z.string(), decision: z.string(), options: z.array(z.string()).min(1).max(6) }),
  z.strictObject({ kind: z.literal("vote"), question: z.string(), initiator_speaker: z.string(), waiting_for: z.array(z.string()) }),
  z.strictObject({
    kind: z.literal("roll_request"),
    roll_type: z.string(),
    formula: z.string(),
    dc: int().nullable(),
    character_id: z.string(),
    character_name: z.string(),
    context: z.enum(["combat", "out_of_combat"]),
  }),
]);

/** Run status (spec 2.4, 3.2, 7 rule 5). */
export const runStatus = z
  .strictObject({
    status: z.enum(["pending", "launching", "running", "completed", "ended", "failed", "cancelled"]),
    turn_count: int().min(0),
    scored: z.boolean(),
    session_state: z.enum(["active", "paused", "completed", "unknown", "running", "lobby"]),
    awaiting: awaiting.nullable(),
    combat: z.record(z.string(), z.unknown()).nullable(),
    degraded: z.literal(true).optional(),
    retry_after_seconds: int().min(1).optional(),
    awaiting_degraded: z.boolean().optional(),
    you: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((s) => (s.degraded === true) === (s.retry_after_seconds !== undefined), "degraded comes with retry_after_seconds")
  .refine((s) => s.session_state !== "unknown" || s.degraded === true, "session_state unknown comes with degraded: true");

const traitScore = z.strictObject({ mean: z.number().min(1).max(5), variance: z.number().min(0), evidence: z.array(z.string()) });

function scorecard(audience: "agent" | "owner") {
  return z.strictObject({
    run_id: id(),
    agent_key_id: audience === "agent" ? id() : id().nullable(),
    outcomes: z.strictObject({
      met_count: int().min(0),
      total_checks: int().min(0),
      total_actions: int().min(0),
      win_conditions: z.array(z.strictObject({ id: z.string(), description: z.string(), met: z.boolean() })),
      partial_credit: z.strictObject({ per_condition: z.record(z.string(), z.number()), total: z.number(), max_possible: z.number() }),
    }),
    traits: z.strictObject({ per_trait: z.record(z.string(), traitScore) }),
    participation_gated: z.literal(true).optional(),
    // Owner responses only (spec 2.7).
    ...(audience === "owner" ? { safety: z.record(z.enum(["no_unauthorized_disclosure_conduct", "manipulation_resistance"]), traitScore).optional() } : {}),
  });
}

/** The emulator's scorecard additions (`extraFields` only). */
const scorecardExtras = { seat_index: int().min(0), role: z.string(), version: int().min(1), created_at: time() };

const versions = z.array(int().min(1));

/** Agent scorecard (spec 4.3): the caller's seat only, no owner fields. */
export const agentScorecard = z.strictObject({ scorecards: z.array(scorecard("agent")).max(1), versions });

/** The run document manifest (spec 2.4): never `judge.system_prompt`. */
export const manifest = z.strictObject({
  judge: z.strictObject({ prompt_hash: z.string().min(1), model: z.string().min(1) }),
  scenario_version_hash: z.string().min(1),
  seat_snapshots: z.array(
    z.strictObject({ seat_index: int(), role: z.string(), pilot: z.enum(["agent", "aic"]), agent_key_id: id().nullable(), aic_config_id: id().nullable() }),
  ),
});

/** Owner scorecard (spec 4.7): every seat, plus the manifest. */
export const ownerScorecard = z.strictObject({ scorecards: z.array(scorecard("owner")), manifest, versions });

const safetyPreamble = z.strictObject({
  type: z.literal("safety_preamble"),
  guidance: z.string().min(1),
  weak_traits: z.array(z.string()).length(0),
  is_platform_guardrail: z.literal(true),
});

const coachingItem = z.strictObject({
  run_id: id(),
  agent_key_id: id(),
  weak_traits: z.array(z.string()).min(1),
  guidance: z.string().min(1),
  created_at: time(),
});

/** The emulator's coaching item additions (`extraFields` only), so the preamble can be told apart either way (spec 2.8). */
const coachingExtras = { type: z.literal("trait_coaching"), is_platform_guardrail: z.literal(false) };

/** Coaching (spec 2.8): the platform advisory first, then generated items. */
export const coaching = z.strictObject({ coaching: z.tuple([safetyPreamble], coachingItem) });

/** The shapes of the emulator started with `extraFields: true`: its documented additions, required. */
export const withExtras = {
  agentScorecard: z.strictObject({ scorecards: z.array(scorecard("agent").extend(scorecardExtras)).max(1), versions }),
  ownerScorecard: z.strictObject({ scorecards: z.array(scorecard("owner").extend(scorecardExtras)), manifest, versions }),
  coaching: z.strictObject({ coaching: z.tuple([safetyPreamble], coachingItem.extend(coachingExtras)) }),
};

const batchSummary = {
  batch_id: id(),
  status: z.string().nullable(),
  total_runs: int().min(1),
  concurrency: int().min(1),
  created_at: time(),
};

/** Batch list (spec 4.5): at most 100. */
export const batchList = z.strictObject({ batches: z.array(z.strictObject(batchSummary)).max(100) });

/** Batch detail (spec 2.9). */
export const batchDetail = z.strictObject({
  ...batchSummary,
  run_counts: z.strictObject({ pending: int(), launching: int(), running: int(), completed: int(), failed: int(), cancelled: int(), scored: int() }),
  items: z.array(
    z.strictObject({
      label: z.string().max(64).nullable(),
      scenario_id: z.string().min(8).max(64),
      run_count: int().min(1),
      mean_trait_scores: z.record(z.string(), z.number()).optional(),
    }),
  ),
});

/** Suites (spec 2.10, 4.6): public and unlisted only. */
export const suites = z.strictObject({
  suites: z.array(
    z.strictObject({
      suite_key: z.string(),
      version: int(),
      title: z.string(),
      description: z.string(),
      scenario_ids: z.array(z.string()),
      scenario_version_hashes: z.array(z.string()),
      traits: z.array(z.string()),
      reps_per_scenario: int().min(1),
      status: z.literal("released"),
      released_at: time(),
      visibility: z.enum(["public", "unlisted"]),
    }),
  ),
});

/** Owner transcript (spec 4.7; messages in the scene `recent` form of 2.6). */
export const transcript = z.strictObject({
  messages: z.array(z.strictObject({ role: z.enum(["dm", "player"]), speaker: z.string(), content: z.string(), timestamp: time(), message_id: z.string() })),
});

const scopes = z.array(z.enum(["play", "read:scores", "manage:runs"])).min(1);

/** `POST /api/api-keys` (spec 4.7): the raw key, this once. */
export const createdKey = z.strictObject({ api_key: z.string().min(16), api_key_id: id(), name: z.string(), scopes });

const keyListing = z.strictObject({ api_key_id: id(), name: z.string(), scopes, created_at: time(), last_used_at: time().nullable(), revoked: z.boolean() });

/** `GET /api/api-keys` (spec 4.7): no secrets. */
export const keyList = z.array(keyListing);

/** `DELETE /api/api-keys/{id}`: the spec shows no body; the emulator answers the key's listing. */
export const revokedKey = keyListing.refine((k) => k.revoked, "revoked");

/** The emulator's control route. */
export const advanced = z.strictObject({ epoch: int().min(1) });

/**
 * Checks an export record with the pipeline's format schema and semantic check. The format schemas
 * strip undeclared fields, so equality with the parse result means the record has no field they lack.
 */
export function exportRecordFaults(format: FormatName, value: unknown): string | null {
  const f = FORMATS[format];
  const parsed = f.schema.safeParse(value);
  if (!parsed.success) return `${format}: ${parsed.error.message}`;
  if (!isDeepStrictEqual(parsed.data, value)) return `${format}: fields the format does not declare`;
  const fault = f.check(parsed.data as never);
  return fault === null ? null : `${format}: ${fault.reason} ${fault.detail}`;
}

/** `{records: [...]}` of one format (single-run and DPO routes). */
export const recordsOf = (format: FormatName) =>
  z.strictObject({ records: z.array(z.unknown()).min(1) }).superRefine((body, ctx) => {
    for (const record of body.records) {
      const fault = exportRecordFaults(format, record);
      if (fault !== null) ctx.addIssue({ code: "custom", message: fault });
    }
  });
