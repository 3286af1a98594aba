import { ForbiddenError, NetworkError, type ExportClient } from "../http/index.js";
import type { PullTally } from "./pull-report.js";
import { RunTable } from "./run-table.js";
import { isRecord } from "../core/is-record.js";

export type { ListedRun } from "./run-table.js";

/**
 * Every run the credential can list, deduplicated by run id, in the service's order (a compact table:
 * a 100,000-run world's list is never 100,000 objects). Owner: `GET
 * /api/evals`. Agent: `GET /api/agent/runs`, then each batch's `GET /api/agent/runs?batch_id=` (the
 * plain list stops at 100 runs; batches reach further back). A key without `manage:runs` cannot list
 * batches: that 403 is noted and the plain list is used alone.
 */
export async function listRuns(client: ExportClient, tally: PullTally): Promise<RunTable> {
  const runs = new RunTable();
  const add = (summaries: unknown, where: string) => {
    if (!Array.isArray(summaries)) throw shapeError(where, "an array of run summaries");
    for (const s of summaries) {
      if (!isRecord(s) || typeof s.run_id !== "string") throw shapeError(where, "run summaries with a string run_id");
      runs.add(s.run_id, typeof s.campaign_id === "string" ? s.campaign_id : undefined, typeof s.status === "string" ? s.status : null, s.scored === true);
    }
  };

  if (client.auth === "owner") {
    tally.r.requests++;
    const body = await client.getJson<unknown>("/api/evals");
    add(isRecord(body) ? body.runs : undefined, "GET /api/evals");
    return runs;
  }

  tally.r.requests++;
  add(await client.getJson<unknown>("/api/agent/runs"), "GET /api/agent/runs");
  for (const list of await batchRunLists(client, tally)) add(list.body, list.where);
  return runs;
}

async function batchRunLists(client: ExportClient, tally: PullTally): Promise<{ body: unknown; where: string }[]> {
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
