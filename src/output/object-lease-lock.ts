import { hostname } from "node:os";
import { takeLease } from "./lease-lock.js";
import type { HeldLease, LeaseClaim, LeaseLock, LeaseRecord, LeaseSlot } from "./lease-lock.js";
import type { ObjectFiles } from "./object-files.js";
import { tryParseJson } from "../core/try-parse-json.js";

/** The lock object, relative to the dataset's prefix. */
export const LOCK_PATH = ".evalshard/lock";

/** What the lock object holds. */
interface LeaseContent extends LeaseRecord {
  readonly acquired: string;
  /** ISO time after which any job may take the lock over. */
  readonly expires: string;
}

/** The lock object as found: its content (none when torn or foreign: expired) and the ETag a takeover replaces. */
type HeldObject = HeldLease & Partial<LeaseContent> & { readonly etag: string };

/**
 * Takes the single-writer lock of a dataset on object storage: a lease (the rules of `takeLease`, lease-lock.ts). The lock
 * object is created with `If-None-Match: *`, so of two jobs racing exactly one gets it (on stores that honour
 * conditional writes; see docs/decisions.md for s3rver); it holds a per-run token and an expiry, renewed every
 * third of the lease with `If-Match` on its ETag. A job that died stops renewing, and once its lease expired
 * the next job takes the lock over with `If-Match` on the dead lease's ETag, so two jobs cannot both take
 * over the same dead lease. Expiry is judged by the clocks of the jobs, so the lease must be long against
 * their skew (default 5 minutes). A holder known alive but past its lease loses it, as one known gone does at once.
 */
export function takeObjectLease(files: ObjectFiles, leaseMs: number): Promise<LeaseLock> {
  return takeLease(lockObject(files, leaseMs), leaseMs);
}

function lockObject(files: ObjectFiles, leaseMs: number): LeaseSlot<HeldObject> {
  // The ETag this job last wrote: the renewal's condition, which only the holder knows.
  let etag = "";
  const lostTo = () => "taken over by another job while this one held it";
  return {
    owner: files.location,
    renewalsPerLease: 3,
    aliveHolds: false,
    read: () => readLease(files),
    async claim(mine, held) {
      const written = await putLease(files, mine, leaseMs, held === null ? null : held.etag);
      if (written === null) return false; // another job won the race: look again
      // A store that ignores conditional writes (s3rver) would let a racer overwrite us: read it back.
      const now = await readLease(files);
      if (now?.token !== mine.token) return false;
      etag = now.etag;
      return true;
    },
    async renew(mine) {
      // Read first, for stores that ignore If-Match (s3rver): never renew a lease another job took over.
      const held = await readLease(files).catch(() => undefined);
      if (held === undefined) return undefined;
      if (held?.token !== mine.token) return lostTo();
      const next = await putLease(files, mine, leaseMs, etag).catch(() => undefined);
      if (next === null) return lostTo();
      if (next === undefined) return undefined;
      etag = next;
      return true;
    },
    lostTo,
    remove: () => files.store.delete([files.key(LOCK_PATH)]),
    refusal(why, held) {
      if (held === null) return `${files.location}: could not take the lock ${files.location}/${LOCK_PATH}, other jobs keep taking it`;
      return `${files.location} is locked by another job (process ${held.pid} on host ${held.host}, since ${held.acquired}, lease until ${held.expires}); it is taken over once the lease expires without renewal`;
    },
  };
}

/** Writes the lease on `condition` (none: absent; else the ETag it replaces); the new ETag, or null when another job holds it now. */
async function putLease(files: ObjectFiles, mine: LeaseClaim, leaseMs: number, condition: string | null): Promise<string | null> {
  const now = Date.now();
  const content: LeaseContent = {
    token: mine.token,
    host: hostname(),
    pid: process.pid,
    acquired: new Date(now).toISOString(),
    expires: new Date(now + leaseMs).toISOString(),
    fence: mine.fence,
    process: mine.identity,
  };
  return files.putIf(LOCK_PATH, Buffer.from(`${JSON.stringify(content)}\n`), condition);
}

async function readLease(files: ObjectFiles): Promise<HeldObject | null> {
  const found = await files.readTagged(LOCK_PATH);
  if (found === null) return null;
  const value = tryParseJson(found.text) as Partial<LeaseContent> | null | undefined;
  if (typeof value?.token === "string" && typeof value.expires === "string") return { ...value, etag: found.etag, expiresAt: Date.parse(value.expires) };
  // A foreign or torn lock object: treated as expired.
  return { etag: found.etag, expiresAt: 0 };
}
