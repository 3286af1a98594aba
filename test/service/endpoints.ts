import type { z } from "zod";
import type { RunningEmulator, Scope } from "../../src/service/index.js";
import type { FormatName } from "../../src/formats/format.js";
import * as shapes from "./spec-shapes.js";
import { call, keysOf, ndjsonLines } from "./support.js";

/** Runs and ids of a seeded world that the endpoint cases need; found the same way on every server of one seed. */
export interface Cast {
  readonly emu: RunningEmulator;
  readonly keys: ReturnType<typeof keysOf>;
  readonly primaryId: string;
  /** Scored, with a per-seat trace, the primary key seated. */
  readonly scored: string;
  /** Same scenario as `scored`, scored and traced, the primary key seated in the same seat; not a tie with it. */
  readonly dpoOther: string;
  /** Same scenario, completed but not yet scored, with a session, the primary key seated. */
  readonly unscored: string;
  /** Pending, the primary key seated. */
  readonly pending: string;
  /** Scored, of the first account, the primary key not seated. */
  readonly notSeated: string;
  /** Scored, of the second account, its key seated. */
  readonly partnerScored: string;
  readonly batchId: string;
  readonly campaignId: string;
  /** A key created for the DELETE case. */
  readonly deletable: string;
}

/** An unknown run: a well-formed id that decodes to no run. */
export const UNKNOWN_RUN = "ffffffffffffffffffffffff";

interface SftLine {
  run_id: string;
  scored: boolean;
  reconstruction: string;
  scenario: { campaign_id: string };
  seat: { seat_index: number; agent_key_id: string | null };
}

/** Finds the cast in a world (seed 11 of 300 runs has every part; other seeds may not). */
export async function discover(emu: RunningEmulator): Promise<Cast> {
  const keys = keysOf(emu);
  const primaryId = emu.apiKeys[0]?.api_key_id ?? "";
  const sft = ndjsonLines((await call(emu, "/api/evals/finetuning?limit=500", keys.owner)).text) as SftLine[];
  const mine = sft.filter((r) => r.seat.agent_key_id === primaryId);
  const byCampaign = new Map<string, SftLine[]>();
  for (const r of mine) byCampaign.set(r.scenario.campaign_id, [...(byCampaign.get(r.scenario.campaign_id) ?? []), r]);

  let found: { scored: string; dpoOther: string; unscored: string; campaignId: string } | undefined;
  search: for (const [campaignId, runs] of byCampaign) {
    const traced = runs.filter((r) => r.scored && r.reconstruction === "per_seat_trace");
    const unscored = runs.find((r) => !r.scored && r.reconstruction !== "no_session");
    if (unscored === undefined) continue;
    for (const [i, a] of traced.entries()) {
      for (const b of traced.slice(i + 1)) {
        const pair = await call(emu, `/api/agent/runs/${a.run_id}/dpo?other=${b.run_id}`, keys.primary);
        if (pair.status === 200) {
          found = { scored: a.run_id, dpoOther: b.run_id, unscored: unscored.run_id, campaignId };
          break search;
        }
      }
    }
  }
  if (found === undefined) throw new Error("this world has no scenario with a DPO pair and an unscored run for the primary key");

  const owned = (await call(emu, "/api/evals", keys.owner)).json().runs as { run_id: string; status: string; scored: boolean }[];
  let pending: string | undefined;
  for (const r of owned.filter((x) => x.status === "pending")) {
    const seats = (await call(emu, `/api/evals/${r.run_id}/scorecard`, keys.owner)).json().manifest.seat_snapshots as { agent_key_id: string | null }[];
    if (seats.some((s) => s.agent_key_id === primaryId)) {
      pending = r.run_id;
      break;
    }
  }
  const seatedRuns = new Set(mine.map((r) => r.run_id));
  const notSeated = sft.find((r) => r.scored && !seatedRuns.has(r.run_id))?.run_id;
  const partnerId = emu.apiKeys[2]?.api_key_id;
  const partnerSft = ndjsonLines((await call(emu, "/api/evals/finetuning?limit=500", keys.partnerOwner)).text) as SftLine[];
  const partnerScored = partnerSft.find((r) => r.scored && r.seat.agent_key_id === partnerId)?.run_id;
  const batchId = (await call(emu, "/api/agent/batches", keys.primary)).json().batches[0]?.batch_id as string | undefined;
  const deletable = (await call(emu, "/api/api-keys", keys.owner, { method: "POST", body: JSON.stringify({ name: "to-delete" }) })).json().api_key_id as string;
  if (pending === undefined || notSeated === undefined || partnerScored === undefined || batchId === undefined) {
    throw new Error(`incomplete cast: ${JSON.stringify({ pending, notSeated, partnerScored, batchId })}`);
  }
  return { emu, keys, primaryId, ...found, pending, notSeated, partnerScored, batchId, deletable };
}

/** One endpoint of the issue, with a request that answers 200 and the shape of that answer. */
export interface Endpoint {
  /** As the issue names it. */
  readonly route: string;
  readonly method: "GET" | "POST" | "DELETE";
  readonly auth: "key" | "owner";
  /** Agent routes: the scope it needs (spec 5). */
  readonly scope?: Scope;
  /** Needs the `rl_dpo_export` entitlement (spec 4.9, 4.10). */
  readonly entitled?: true;
  /** An NDJSON bulk stream of this format; or single-run/DPO `{records}` of it. */
  readonly ndjson?: FormatName;
  readonly records?: FormatName;
  /** The body's schema (JSON routes). */
  readonly shape?: z.ZodType;
  /** The request that answers 200 (201 for key creation). */
  readonly path: (c: Cast) => string;
  /** The request for another run in place of the one `path` uses: for the 403/404/409 cases. */
  readonly forRun?: (c: Cast, runId: string) => string;
  /** Answers 409 `conflict` while the run is not yet scored (single-run exports, DPO). */
  readonly conflictsUnscored?: true;
  readonly body?: string;
}

const agentRun = (suffix: string) => (_c: Cast, run: string) => `/api/agent/runs/${run}${suffix}`;
const ownerRun = (suffix: string) => (_c: Cast, run: string) => `/api/evals/${run}${suffix}`;

/** Every endpoint the issue lists, agent routes first. */
export const ENDPOINTS: readonly Endpoint[] = [
  { route: "GET /api/agent/runs", method: "GET", auth: "key", scope: "play", shape: shapes.agentRunList, path: () => "/api/agent/runs" },
  { route: "GET /api/agent/runs?batch_id", method: "GET", auth: "key", scope: "play", shape: shapes.agentRunList, path: (c) => `/api/agent/runs?batch_id=${c.batchId}` },
  { route: "GET /api/agent/batches", method: "GET", auth: "key", scope: "manage:runs", shape: shapes.batchList, path: () => "/api/agent/batches" },
  { route: "GET /api/agent/batches/{batch_id}", method: "GET", auth: "key", scope: "manage:runs", shape: shapes.batchDetail, path: (c) => `/api/agent/batches/${c.batchId}` },
  { route: "GET /api/agent/runs/{run_id}/status", method: "GET", auth: "key", scope: "play", shape: shapes.runStatus, path: (c) => `/api/agent/runs/${c.scored}/status`, forRun: agentRun("/status") },
  { route: "GET /api/agent/runs/{run_id}/scorecard", method: "GET", auth: "key", scope: "read:scores", shape: shapes.agentScorecard, path: (c) => `/api/agent/runs/${c.scored}/scorecard`, forRun: agentRun("/scorecard") },
  { route: "GET /api/agent/runs/{run_id}/scorecard?version", method: "GET", auth: "key", scope: "read:scores", shape: shapes.agentScorecard, path: (c) => `/api/agent/runs/${c.scored}/scorecard?version=1`, forRun: agentRun("/scorecard?version=1") },
  { route: "GET /api/agent/runs/{run_id}/coaching", method: "GET", auth: "key", scope: "read:scores", shape: shapes.coaching, path: (c) => `/api/agent/runs/${c.scored}/coaching`, forRun: agentRun("/coaching") },
  { route: "GET /api/agent/runs/{run_id}/finetuning", method: "GET", auth: "key", scope: "read:scores", records: "sft", path: (c) => `/api/agent/runs/${c.scored}/finetuning`, forRun: agentRun("/finetuning"), conflictsUnscored: true },
  { route: "GET /api/agent/runs/{run_id}/finetuning/rl", method: "GET", auth: "key", scope: "read:scores", entitled: true, records: "rl", path: (c) => `/api/agent/runs/${c.scored}/finetuning/rl`, forRun: agentRun("/finetuning/rl"), conflictsUnscored: true },
  { route: "GET /api/agent/runs/{run_id}/dpo?other=", method: "GET", auth: "key", scope: "read:scores", entitled: true, records: "dpo", path: (c) => `/api/agent/runs/${c.scored}/dpo?other=${c.dpoOther}`, forRun: (c, run) => `/api/agent/runs/${run}/dpo?other=${c.dpoOther}`, conflictsUnscored: true },
  { route: "GET /api/agent/finetuning", method: "GET", auth: "key", scope: "read:scores", ndjson: "sft", path: () => "/api/agent/finetuning" },
  { route: "GET /api/agent/finetuning?limit", method: "GET", auth: "key", scope: "read:scores", ndjson: "sft", path: () => "/api/agent/finetuning?limit=7" },
  { route: "GET /api/agent/finetuning/rl", method: "GET", auth: "key", scope: "read:scores", entitled: true, ndjson: "rl", path: () => "/api/agent/finetuning/rl" },
  { route: "GET /api/agent/finetuning/dpo?run_id_a=&run_id_b=", method: "GET", auth: "key", scope: "read:scores", entitled: true, records: "dpo", path: (c) => `/api/agent/finetuning/dpo?run_id_a=${c.scored}&run_id_b=${c.dpoOther}`, forRun: (c, run) => `/api/agent/finetuning/dpo?run_id_a=${run}&run_id_b=${c.dpoOther}`, conflictsUnscored: true },
  { route: "GET /api/agent/suites", method: "GET", auth: "key", scope: "read:scores", shape: shapes.suites, path: () => "/api/agent/suites" },

  { route: "GET /api/evals", method: "GET", auth: "owner", shape: shapes.ownerRunList, path: () => "/api/evals" },
  { route: "GET /api/evals/{run_id}/scorecard", method: "GET", auth: "owner", shape: shapes.ownerScorecard, path: (c) => `/api/evals/${c.scored}/scorecard`, forRun: ownerRun("/scorecard") },
  { route: "GET /api/evals/{run_id}/coaching", method: "GET", auth: "owner", shape: shapes.coaching, path: (c) => `/api/evals/${c.scored}/coaching`, forRun: ownerRun("/coaching") },
  { route: "GET /api/evals/{run_id}/transcript", method: "GET", auth: "owner", shape: shapes.transcript, path: (c) => `/api/evals/${c.scored}/transcript`, forRun: ownerRun("/transcript") },
  { route: "GET /api/evals/{run_id}/finetuning", method: "GET", auth: "owner", records: "sft", path: (c) => `/api/evals/${c.scored}/finetuning`, forRun: ownerRun("/finetuning") },
  { route: "GET /api/evals/{run_id}/finetuning?include_transcript", method: "GET", auth: "owner", records: "sft", path: (c) => `/api/evals/${c.scored}/finetuning?include_transcript=true`, forRun: ownerRun("/finetuning?include_transcript=true") },
  { route: "GET /api/evals/{run_id}/finetuning/rl", method: "GET", auth: "owner", entitled: true, records: "rl", path: (c) => `/api/evals/${c.scored}/finetuning/rl`, forRun: ownerRun("/finetuning/rl"), conflictsUnscored: true },
  { route: "GET /api/evals/{run_id}/dpo?other=", method: "GET", auth: "owner", entitled: true, records: "dpo", path: (c) => `/api/evals/${c.scored}/dpo?other=${c.dpoOther}`, forRun: (c, run) => `/api/evals/${run}/dpo?other=${c.dpoOther}`, conflictsUnscored: true },
  { route: "GET /api/evals/finetuning", method: "GET", auth: "owner", ndjson: "sft", path: () => "/api/evals/finetuning" },
  { route: "GET /api/evals/finetuning?limit&campaign_id", method: "GET", auth: "owner", ndjson: "sft", path: (c) => `/api/evals/finetuning?limit=500&campaign_id=${c.campaignId}` },
  { route: "GET /api/evals/finetuning/rl", method: "GET", auth: "owner", entitled: true, ndjson: "rl", path: () => "/api/evals/finetuning/rl" },
  { route: "GET /api/evals/dpo?run_id_a=&run_id_b=", method: "GET", auth: "owner", entitled: true, records: "dpo", path: (c) => `/api/evals/dpo?run_id_a=${c.scored}&run_id_b=${c.dpoOther}`, forRun: (c, run) => `/api/evals/dpo?run_id_a=${run}&run_id_b=${c.dpoOther}`, conflictsUnscored: true },
  { route: "POST /api/api-keys", method: "POST", auth: "owner", shape: shapes.createdKey, path: () => "/api/api-keys", body: JSON.stringify({ name: "contract", scopes: ["read:scores"] }) },
  { route: "GET /api/api-keys", method: "GET", auth: "owner", shape: shapes.keyList, path: () => "/api/api-keys" },
  { route: "DELETE /api/api-keys/{api_key_id}", method: "DELETE", auth: "owner", shape: shapes.revokedKey, path: (c) => `/api/api-keys/${c.deletable}` },
];

/** The credential an endpoint wants, from the cast. */
export function tokenFor(endpoint: Endpoint, c: Cast): string {
  return endpoint.auth === "key" ? c.keys.primary : c.keys.owner;
}

/** Sends an endpoint's request (its own method and body) with a token, or none. */
export function send(endpoint: Endpoint, c: Cast, path: string, token: string | undefined) {
  const init: RequestInit = endpoint.body === undefined ? { method: endpoint.method } : { method: endpoint.method, body: endpoint.body };
  return call(c.emu, path, token, init);
}
