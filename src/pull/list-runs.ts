import { ForbiddenError, NetworkError, type ServiceClient } from "../http/index.js";
import type { PullTally } from "./pull-report.js";

/** A run as the service lists it (spec 2.4), with its place in the list. */
export interface ListedRun {
  readonly runId: string;
  /** Owner lists only; agent summaries carry no scenario. */
  readonly campaignId: string | undefined;
  readonly status: string | null;
  readonly scored: boolean;
  /** Position in the service's list order (newest first), which fixes the spool's order. */
  readonly order: number;
}

/**
 * Every run the credential can list, deduplicated by run id, in the service's order. Owner: `GET
 * /api/evals`. Agent: `GET /api/agent/runs`, then each batch's `GET /api/agent/runs?batch_id=` (the
 * plain list stops at 100 runs; batches reach further back). A key without `manage:runs` cannot list
 * batches: that 403 is noted and the plain list is used alone.
 */
export async function listRuns(client: ServiceClient, tally: PullTally): Promise<ListedRun[]> {
  const runs = new Map<string, ListedRun>();
  // A world has a few hundred campaigns and JSON.parse gives each run its own copy of the id: one kept.
  const campaigns = new Map<string, string>();
  const intern = (id: string) => campaigns.get(id) ?? (campaigns.set(id, id), id);
  const add = (summaries: unknown, where: string) => {
    if (!Array.isArray(summaries)) throw shapeError(where, "an array of run summaries");
    for (const s of summaries) {
      if (!isRecord(s) || typeof s.run_id !== "string") throw shapeError(where, "run summaries with a string run_id");
      if (runs.has(s.run_id)) continue;
      runs.set(s.run_id, {
        runId: s.run_id,
        campaignId: typeof s.campaign_id === "string" ? intern(s.campaign_id) : undefined,
        status: typeof s.status === "string" ? s.status : null,
        scored: s.scored === true,
        order: runs.size,
      });
    }
  };

  if (client.auth === "owner") {
    tally.r.requests++;
    const body = await client.getJson<unknown>("/api/evals");
    add(isRecord(body) ? body.runs : undefined, "GET /api/evals");
    return [...runs.values()];
  }

  tally.r.requests++;
  add(await client.getJson<unknown>("/api/agent/runs"), "GET /api/agent/runs");
  for (const list of await batchRunLists(client, tally)) add(list.body, list.where);
  return [...runs.values()];
}

async function batchRunLists(client: ServiceClient, tally: PullTally): Promise<{ body: unknown; where: string }[]> {
  let batches: unknown;
  try {
    tally.r.requests++;
    const body = await client.getJson<unknown>("/api/agent/batches");
    batches = isRecord(body) ? body.batches : undefined;
  } catch (error) {
    if (error instanceof ForbiddenError && error.missingScopes.includes("manage:runs")) {
      tally.r.notes.push("the key lacks manage:runs, so batches were not listed: only the newest 100 runs of GET /api/agent/runs were seen");
      return [];
    }
    throw error;
  }
  if (!Array.isArray(batches)) throw shapeError("GET /api/agent/batches", "{batches: [...]}");
  const ids = batches.map((b) => (isRecord(b) && typeof b.batch_id === "string" ? b.batch_id : undefined));
  // Fetched together under the client's limit; kept in the batch list's order.
  return Promise.all(
    ids.filter((id): id is string => id !== undefined).map(async (id) => {
      tally.r.requests++;
      return { body: await client.getJson<unknown>("/api/agent/runs", { batch_id: id }), where: `GET /api/agent/runs?batch_id=${id}` };
    }),
  );
}

function shapeError(where: string, expected: string): NetworkError {
  const path = where.replace(/^GET /, "");
  return new NetworkError(`${where} answered an unexpected body: expected ${expected}`, "GET", path, 1, "cut");
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
