import { randomUUID } from "node:crypto";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { encodeEscaped } from "../sources/escaped-utf8.js";
import { fetchRecords, type FetchRecordsContext } from "./fetch-records.js";
import { pullRoutes } from "./routes.js";
import type { RunTable } from "./run-table.js";

/**
 * The RL records of `wanted` (numbers in `runs`: a DPO pull's paired runs), fetched from the service's RL routes as an RL pull
 * fetches them, into a file in `spoolDir`: the context a DPO view joins its pairs against for their prompts
 * (issue 18, spec 4.10: a pair's `index` is a step of `run_chosen`'s trajectory). Lines come in completion
 * order, which the join does not mind; lines that are not records (`partial_stream`) are left out, as the
 * streams' gaps are fetched run by run. A run without RL data gives no line (its pairs then have no prompt).
 */
export async function fetchRlContext(ctx: FetchRecordsContext, runs: RunTable, wanted: Int32Array, spoolDir: string): Promise<string> {
  const path = join(spoolDir, `pull-rl-context-${randomUUID()}.ndjson`);
  const file = await open(path, "wx");
  try {
    const rl: FetchRecordsContext = { ...ctx, routes: pullRoutes(ctx.client.auth, "rl"), rl: true };
    await fetchRecords(rl, runs, wanted, async (v) => void (await file.write(encodeEscaped(`${v.line}\n`))), () => {});
  } finally {
    await file.close();
  }
  return path;
}
