import { ConfigError } from "../core/errors.js";
import type { Storage } from "./storage.js";

/**
 * Refuses an output holding anything evalshard did not write ({@link Storage.foreignFile}), unless `force`:
 * a publish replaces what it finds at the dataset's names, and the user's own files must never go with it
 * (issue 40). Call it before anything is created there.
 */
export async function refuseForeignOutput(storage: Storage, force: boolean): Promise<void> {
  if (force) return;
  const foreign = await storage.foreignFile();
  if (foreign === null) return;
  throw new ConfigError(
    `Output ${storage.location} holds ${JSON.stringify(foreign)}, which evalshard did not write: a publish replaces what it finds at a dataset's names (data, README.md, manifest.json, _quarantine, ...). ` +
      `Choose a new or empty folder (or a dataset evalshard wrote), or pass --force to write there anyway`,
  );
}
