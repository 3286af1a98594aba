import { pruneRejected, REJECTED_DIR } from "./publish-guard.js";
import type { Staging, Storage } from "./storage.js";

/**
 * Keeps a refused attempt's `entries` under `rejectedTo` (`_rejected/<name>/`, from the publish decision)
 * instead of publishing them, then prunes the oldest refused attempts. Returns where they went.
 */
export async function rejectStaging(storage: Storage, staging: Staging, entries: readonly string[], rejectedTo: string | null): Promise<string> {
  const name = rejectedTo?.slice(REJECTED_DIR.length + 1).replace(/\/$/, "") ?? "";
  if (rejectedTo === null || name === "" || name.includes("/")) throw new Error(`Internal error: a refused attempt needs a ${REJECTED_DIR}/<name>/ folder, got ${JSON.stringify(rejectedTo)}`);
  const where = await staging.reject(entries, name);
  await pruneRejected(storage);
  return where;
}
