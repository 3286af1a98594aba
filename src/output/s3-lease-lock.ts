import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { LockedError } from "../core/errors.js";
import { errorName, httpStatus, s3Error } from "./s3-error.js";
import type { S3Files } from "./s3-files.js";
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
}

/** A held lease: renewed in the background until released; `lost` once another job took it over. */
export interface LeaseLock extends Lock {
  readonly token: string;
  readonly lost: boolean;
}

/**
 * Takes the single-writer lock of a dataset on S3: a lease. The lock object is created with
 * `If-None-Match: *`, so of two jobs racing exactly one gets it (on stores that honour conditional
 * writes; see docs/decisions.md for s3rver); it holds a per-run token and an expiry, renewed every third
 * of the lease with `If-Match` on its ETag. A job that died stops renewing, and once its lease expired
 * the next job takes the lock over with `If-Match` on the dead lease's ETag, so two jobs cannot both take
 * over the same dead lease. Expiry is judged by the clocks of the jobs, so the lease must be long
 * against their skew (default 5 minutes). Pid and host are for the message only: a restarted container
 * reusing pid 1, or a new pod with a new hostname, changes nothing.
 */
export async function takeLease(files: S3Files, leaseMs: number): Promise<LeaseLock> {
  const token = randomBytes(12).toString("hex");
  for (let attempt = 0; attempt < 5; attempt++) {
    const held = await readLease(files);
    if (held !== null && Date.parse(held.content?.expires ?? "") > Date.now()) {
      const c = held.content!;
      throw new LockedError(
        `${files.location} is locked by another job (process ${c.pid} on host ${c.host}, since ${c.acquired}, lease until ${c.expires}); it is taken over once the lease expires without renewal`,
      );
    }
    const etag = await putLease(files, token, leaseMs, held === null ? { IfNoneMatch: "*" } : held.etag === undefined ? {} : { IfMatch: held.etag });
    if (etag === null) continue; // another job won the race: look again
    // A store that ignores conditional writes (s3rver) would let a racer overwrite us: read it back.
    const now = await readLease(files);
    if (now?.content?.token !== token) continue;
    return renewing(files, token, now.etag ?? etag, leaseMs);
  }
  throw new LockedError(`${files.location}: could not take the lock ${files.location}/${LOCK_PATH}, other jobs keep taking it`);
}

function renewing(files: S3Files, token: string, firstEtag: string, leaseMs: number): LeaseLock {
  let etag = firstEtag;
  let lost = false;
  let renewal: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewal = renewal.then(async () => {
      if (lost) return;
      // Read first, for stores that ignore If-Match (s3rver): never renew a lease another job took over.
      const held = await readLease(files).catch(() => undefined);
      if (held !== undefined && held?.content?.token !== token) {
        lost = true;
        return;
      }
      const next = await putLease(files, token, leaseMs, { IfMatch: etag }).catch(() => undefined);
      if (next === null) lost = true;
      else if (next !== undefined) etag = next;
      // A failed renewal (network) is retried at the next tick; the lease outlives two of them.
    });
  }, Math.max(10, Math.floor(leaseMs / 3)));
  // The lease must not keep a finished process alive.
  timer.unref();
  return {
    token,
    get lost() {
      return lost;
    },
    async release() {
      clearInterval(timer);
      await renewal;
      const held = await readLease(files);
      // Never delete a lock another job took over after our lease expired.
      if (held?.content?.token === token) await files.deleteKeys([files.key(LOCK_PATH)]);
    },
  };
}

/** Writes the lease; the new ETag, or null when the condition failed (someone else holds it now). */
async function putLease(files: S3Files, token: string, leaseMs: number, condition: { IfNoneMatch?: string; IfMatch?: string }): Promise<string | null> {
  const now = Date.now();
  const content: LeaseContent = {
    token,
    host: hostname(),
    pid: process.pid,
    acquired: new Date(now).toISOString(),
    expires: new Date(now + leaseMs).toISOString(),
  };
  const key = files.key(LOCK_PATH);
  try {
    const out = await files.client.send(
      new PutObjectCommand({ Bucket: files.where.bucket, Key: key, Body: `${JSON.stringify(content)}\n`, ContentType: "application/json", ...condition }),
    );
    return out.ETag ?? "";
  } catch (error) {
    // 412: the condition failed; 409: a concurrent conditional write is in progress (S3 says retry).
    if (httpStatus(error) === 412 || httpStatus(error) === 409 || errorName(error) === "PreconditionFailed") return null;
    throw s3Error(error, "write the lock", files.target(key));
  }
}

async function readLease(files: S3Files): Promise<{ content: LeaseContent | null; etag: string | undefined } | null> {
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
