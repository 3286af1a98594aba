import { redactJson } from "../core/secrets.js";
import type { Lock, PublishHook, Staging, Storage } from "./storage.js";
import type { PublishDecision } from "./publish-guard.js";
import { sealedManifestText } from "./manifest-seal.js";
import { rejectStaging } from "./reject-staging.js";
import { writeText } from "./write-text.js";

/** A storage's lock and a staging opened under it: what a dataset being written holds until publish. */
export interface LockedStaging {
  readonly lock: Lock;
  readonly staging: Staging;
}

/**
 * Takes `storage`'s lock, opens a staging in it (finishing or discarding what a crashed run left) and runs
 * `then` on it (e.g. reading the current dataset); on any failure drops the staging and releases the lock.
 */
export async function openLockedStaging<T>(storage: Storage, onStep: PublishHook | undefined, then: (opened: LockedStaging) => Promise<T>): Promise<T> {
  const lock = await storage.lock();
  let staging: Staging | undefined;
  try {
    staging = await storage.stage(onStep === undefined ? {} : { onStep });
    return await then({ lock, staging });
  } catch (error) {
    await staging?.abort();
    await lock.release();
    throw error;
  }
}

/** Drops what was staged (the previous dataset stays) and releases the lock, even when the drop fails. */
export async function abortLockedStaging({ lock, staging }: LockedStaging): Promise<void> {
  try {
    await staging.abort();
  } finally {
    await lock.release();
  }
}

/**
 * Writes the card (README.md) and the manifest (manifest.json, last), publishes `entries` with them and
 * releases the lock; or, when the publish guards refused the run (`decision.published` false), keeps them
 * under `decision.rejected_to` instead and leaves the dataset as it was. Returns where the files went.
 */
export async function publishLockedStaging(
  { storage, lock, staging }: LockedStaging & { readonly storage: Storage },
  files: { readonly card: string; readonly manifest: object },
  entries: readonly string[],
  decision?: Pick<PublishDecision, "published" | "rejected_to">,
): Promise<string> {
  // Written together: the publish still moves the manifest last, and no reader sees either before it.
  const written = await Promise.allSettled([writeText(staging, "README.md", files.card), writeText(staging, "manifest.json", sealedManifestText(redactJson(files.manifest)))]);
  for (const result of written) if (result.status === "rejected") throw result.reason;
  const all = [...entries, "README.md", "manifest.json"];
  let where = storage.location;
  if (decision === undefined || decision.published) await staging.publish(all);
  else where = await rejectStaging(storage, staging, all, decision.rejected_to);
  await lock.release();
  return where;
}
