import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { FencedError, LockedError } from "../core/errors.js";
import type { ObjectFiles } from "./object-files.js";
import { isGone, ownIdentity } from "./process-identity.js";
import type { ProcessIdentity } from "./process-identity.js";
import { readText } from "./write-text.js";
import type { Lock } from "./storage.js";

/** The lock object, relative to the dataset's prefix. */
export const LOCK_PATH = ".evalshard/lock";

/** What the lock object holds. */
export interface LeaseContent {
  readonly token: string;
  readonly host: string;
  readonly pid: number;
  readonly acquired: string;
  /** ISO time after which any job may take the lock over. */
  readonly expires: string;
  /** The fencing token: above the taken-over lease's, at least the holder's clock in ms (as locally). */
  readonly fence?: number;
  /** Where /proc tells it: a job on the same host and boot sees at once that the holder died. */
  readonly process?: ProcessIdentity | null;
}

/** A held lease: renewed in the background until released; `lost` once another job took it over. */
export interface LeaseLock extends Lock {
  readonly token: string;
  readonly fence: number;
  readonly lost: boolean;
  /** Renews the lease with `If-Match` on its ETag, now; throws `FencedError` when another job holds it. */
  check(): Promise<void>;
}

/**
 * Takes the single-writer lock of a dataset on object storage: a lease. The lock object is created with
 * `If-None-Match: *`, so of two jobs racing exactly one gets it (on stores that honour conditional
 * writes; see docs/decisions.md for s3rver); it holds a per-run token and an expiry, renewed every third
 * of the lease with `If-Match` on its ETag. A job that died stops renewing, and once its lease expired
 * the next job takes the lock over with `If-Match` on the dead lease's ETag, so two jobs cannot both take
 * over the same dead lease. Expiry is judged by the clocks of the jobs, so the lease must be long
 * against their skew (default 5 minutes). Pid and host are for the message: a restarted container
 * reusing pid 1, or a new pod with a new hostname, changes nothing; a lease whose holder ran on this boot
 * in this pid namespace and is gone (its pid and start time name no process) is taken over at once.
 */
export async function takeLease(files: ObjectFiles, leaseMs: number): Promise<LeaseLock> {
  const token = randomBytes(12).toString("hex");
  const identity = ownIdentity();
  for (let attempt = 0; attempt < 5; attempt++) {
    const held = await readLease(files);
    const c = held?.content ?? null;
    const dead = c?.process != null && isGone(c.pid, c.process, identity) === true;
    if (c !== null && !dead && Date.parse(c.expires) > Date.now()) {
      throw new LockedError(
        `${files.location} is locked by another job (process ${c.pid} on host ${c.host}, since ${c.acquired}, lease until ${c.expires}); it is taken over once the lease expires without renewal`,
      );
    }
    const mine: Mine = { token, fence: Math.max(Date.now(), (c?.fence ?? 0) + 1), identity };
    const etag = await putLease(files, mine, leaseMs, held === null ? null : held.etag);
    if (etag === null) continue; // another job won the race: look again
    // A store that ignores conditional writes (s3rver) would let a racer overwrite us: read it back.
    const now = await readLease(files);
    if (now?.content?.token !== token) continue;
    return renewing(files, mine, now.etag, leaseMs);
  }
  throw new LockedError(`${files.location}: could not take the lock ${files.location}/${LOCK_PATH}, other jobs keep taking it`);
}

/** What this job writes into each lease. */
interface Mine {
  readonly token: string;
  readonly fence: number;
  readonly identity: ProcessIdentity | null;
}

function renewing(files: ObjectFiles, mine: Mine, firstEtag: string, leaseMs: number): LeaseLock {
  const { token } = mine;
  let etag = firstEtag;
  let lost = false;
  // Once check() threw, the job knows (and says) it lost the lock: its release, on the way out, says nothing more.
  let told = false;
  let renewal: Promise<void> = Promise.resolve();
  /** Renews once: false when another job holds the lease; undefined when the store could not be asked. */
  const renew = async (): Promise<boolean | undefined> => {
    // Read first, for stores that ignore If-Match (s3rver): never renew a lease another job took over.
    const held = await readLease(files).catch(() => undefined);
    if (held === undefined) return undefined;
    if (held?.content?.token !== token) return false;
    const next = await putLease(files, mine, leaseMs, etag).catch(() => undefined);
    if (next === null) return false;
    if (next === undefined) return undefined;
    etag = next;
    return true;
  };
  /**
   * Renews after the renewal before it: two at once would race on the ETag, and the loser (412 on a store that
   * honours If-Match, a torn read on s3rver) would take its own job's renewal for a takeover.
   */
  let queued = 0;
  const renewNext = (): Promise<boolean | undefined> => {
    queued++;
    const next = renewal.then(async () => (lost ? false : renew()));
    renewal = next.then((held) => {
      queued--;
      if (held === false) lost = true;
    });
    return next;
  };
  // A failed renewal (network) is retried at the next tick; the lease outlives two of them. A tick while one
  // is under way (a slow store) is skipped, so they never pile up.
  const timer = setInterval(() => void (queued === 0 && renewNext()), Math.max(10, Math.floor(leaseMs / 3)));
  // The lease must not keep a finished process alive.
  timer.unref();
  return {
    token,
    fence: mine.fence,
    get lost() {
      return lost;
    },
    async check() {
      // The renewal is the fence: a conditional write on the ETag this job last wrote, which only its holder knows.
      const held = await renewNext();
      if (held !== true) {
        told = held === false;
        throw new FencedError(
          held === false
            ? `The lock of ${files.location} was taken over by another job while this one held it (fence ${mine.fence}; it had not renewed its ${leaseMs} ms lease in time, e.g. stopped or frozen): this job stops here and leaves the dataset to the job that holds the lock`
            : `Cannot confirm that this job still holds the lock of ${files.location} (the lease could not be renewed): it stops here, leaving the dataset as it is`,
        );
      }
    },
    async release() {
      clearInterval(timer);
      await renewal;
      const held = await readLease(files);
      // Never delete a lock another job took over after our lease expired.
      if (held?.content?.token === token) await files.store.delete([files.key(LOCK_PATH)]);
      else if (!told) {
        throw new LockedError(
          `The lock of ${files.location} was taken over by another job while this one held it (fence ${mine.fence}; it had not renewed its ${leaseMs} ms lease in time, e.g. stopped or frozen): another job may have written there meanwhile; check it with \`evalshard verify ${files.location}\``,
        );
      }
    },
  };
}

/** Writes the lease on `condition` (none: absent; else the ETag it replaces); the new ETag, or null when another job holds it now. */
async function putLease(files: ObjectFiles, mine: Mine, leaseMs: number, condition: string | null): Promise<string | null> {
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
  const key = files.key(LOCK_PATH);
  const body = Buffer.from(`${JSON.stringify(content)}\n`);
  return condition === null ? files.store.putIfAbsent(key, body) : files.store.putIfMatch(key, body, condition);
}

async function readLease(files: ObjectFiles): Promise<{ content: LeaseContent | null; etag: string } | null> {
  const head = await files.head(LOCK_PATH);
  if (head === null) return null;
  const text = await readText(files, LOCK_PATH);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<LeaseContent>;
    if (typeof value.token === "string" && typeof value.expires === "string") return { content: value as LeaseContent, etag: head.etag };
  } catch {
    // A foreign or torn lock object: treated as expired.
  }
  return { content: null, etag: head.etag };
}
