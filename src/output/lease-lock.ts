import { randomBytes } from "node:crypto";
import { FencedError, LockedError } from "../core/errors.js";
import { isGone, ownIdentity } from "./process-identity.js";
import type { ProcessIdentity } from "./process-identity.js";
import type { Lock } from "./storage.js";

/** What a lock's record holds on every storage. */
export interface LeaseRecord {
  readonly token: string;
  readonly pid: number;
  readonly host: string;
  /**
   * The fencing token: greater than that of the lock it took over, and at least the holder's clock in ms,
   * so later holders carry larger numbers. Messages name it; ownership is the token's.
   */
  readonly fence?: number;
  /** Present where /proc tells it: lets a job in the same pid namespace see at once that the holder died. */
  readonly process?: ProcessIdentity | null;
}

/**
 * The lock as a storage finds it: when its lease runs out without renewal (ms, by this job's clock); no
 * token for a torn or foreign record, which holds only until then (locally: one being written).
 */
export type HeldLease = Partial<LeaseRecord> & { readonly expiresAt: number };

/** What this job writes into the lock: its token and fence, and its process for a same-host takeover. */
export interface LeaseClaim {
  readonly token: string;
  readonly fence: number;
  readonly identity: ProcessIdentity | null;
}

/**
 * Why a lock is another job's: its record being written, its holder known alive, or its lease running; or
 * `contended`: other jobs kept taking it while this one tried.
 */
export type Refusal = "writing" | "running" | "leased" | "contended";

/**
 * The one record a storage keeps for its lock (a file created with O_EXCL, an object written with
 * conditional PUTs): how it is read, claimed, renewed and removed. The lease's rules live in {@link takeLease}.
 */
export interface LeaseSlot<H extends HeldLease> {
  /** The dataset, for messages: a directory, `s3://bucket/prefix`. */
  readonly owner: string;
  /** How often the holder renews per lease: often enough that a few late ticks do not lose it. */
  readonly renewalsPerLease: number;
  /** Whether a holder known alive keeps the lock past its lease (locally, a stopped job is still the holder). */
  readonly aliveHolds: boolean;
  read(): Promise<H | null>;
  /** Writes `mine` where there is no lock (`held` null) or over the stale `held`; false when another job got there first. */
  claim(mine: LeaseClaim, held: H | null): Promise<boolean>;
  /** Renews the held lease: true; how it was lost ("taken over by …"); undefined when the storage could not be asked. */
  renew(mine: LeaseClaim): Promise<true | string | undefined>;
  /** How the lock was lost, seeing `held` (null: gone) where this job's should be. */
  lostTo(held: H | null): string;
  remove(): Promise<void>;
  /** The message of a refusal (`held` null only when `contended`). */
  refusal(why: Refusal, held: H | null): string;
}

/** A held lease, renewed in the background until released; `lost` once another job took it over. */
export interface LeaseLock extends Lock {
  /** This holder's fencing token (see docs/decisions.md, "fenced publishes"). */
  readonly fence: number;
  readonly lost: boolean;
  check(): Promise<void>;
}

/**
 * Takes a storage's single-writer lock as a lease, by one set of rules whatever the storage. A lock is
 * another job's while its holder is known alive (same boot and pid namespace: pid and start time match a
 * live process; see `aliveHolds`) or, where that cannot be told (another container, pod or host), while its
 * lease runs; a holder known gone loses it at once. A pid or a hostname alone never decides: both are reused.
 * The taker's fence is above the stale lock's and at least its clock in ms, so later holders carry larger
 * numbers. The holder renews `renewalsPerLease` times a lease, one renewal at a time.
 */
export async function takeLease<H extends HeldLease>(slot: LeaseSlot<H>, leaseMs: number): Promise<LeaseLock> {
  const token = randomBytes(12).toString("hex");
  const identity = ownIdentity();
  let after = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    const held = await slot.read();
    if (held !== null) {
      const why = refusal(held, identity, slot.aliveHolds);
      if (why !== null) throw new LockedError(slot.refusal(why, held));
      after = Math.max(after, held.fence ?? 0);
    }
    const mine: LeaseClaim = { token, fence: Math.max(Date.now(), after + 1), identity };
    if (await slot.claim(mine, held)) return hold(slot, mine, leaseMs);
  }
  throw new LockedError(slot.refusal("contended", null));
}

/** Why `held` is another live job's lock; null when it is stale. */
function refusal(held: HeldLease, identity: ProcessIdentity | null, aliveHolds: boolean): Exclude<Refusal, "contended"> | null {
  const running = Date.now() < held.expiresAt;
  if (held.token === undefined) return running ? "writing" : null;
  const gone = held.process == null || held.pid === undefined ? undefined : isGone(held.pid, held.process, identity);
  if (gone === true) return null;
  if (gone === false && aliveHolds) return "running";
  return running ? "leased" : null;
}

function hold<H extends HeldLease>(slot: LeaseSlot<H>, mine: LeaseClaim, leaseMs: number): LeaseLock {
  let lost: string | null = null;
  // Once check() threw, the job knows (and says) it lost the lock: its release, on the way out, says nothing more.
  let told = false;
  let renewal: Promise<void> = Promise.resolve();
  /**
   * Renews after the renewal before it: two at once would race (on the ETag of an object), and the loser
   * would take its own job's renewal for a takeover.
   */
  let queued = 0;
  const renewNext = (): Promise<true | string | undefined> => {
    queued++;
    const next = renewal.then(async () => lost ?? slot.renew(mine));
    renewal = next.then((held) => {
      queued--;
      if (typeof held === "string") lost ??= held;
    });
    return next;
  };
  // A failed renewal is retried at the next tick; a tick while one is under way (a slow store) is skipped.
  const timer = setInterval(() => void (queued === 0 && renewNext()), Math.max(10, Math.floor(leaseMs / slot.renewalsPerLease)));
  // The lease must never keep a finished process alive.
  timer.unref();
  const lostLock = (how: string, what: string) =>
    `The lock of ${slot.owner} was ${how} (fence ${mine.fence}; it had not renewed its ${leaseMs} ms lease in time, e.g. stopped or frozen): ${what}`;
  return {
    fence: mine.fence,
    get lost() {
      return lost !== null;
    },
    async check() {
      // The renewal is the fence: it confirms the token (and on object storage rewrites the lease on its ETag).
      const held = await renewNext();
      if (held === true) return;
      if (held === undefined) {
        throw new FencedError(`Cannot confirm that this job still holds the lock of ${slot.owner} (the lease could not be renewed): it stops here, leaving the dataset as it is`);
      }
      told = true;
      throw new FencedError(lostLock(held, "this job stops here and leaves the dataset to the job that holds the lock"));
    },
    async release() {
      clearInterval(timer);
      await renewal;
      const held = await slot.read();
      // Never delete a lock another job took over after this job's lease ran out.
      if (held?.token === mine.token) await slot.remove();
      else lost ??= slot.lostTo(held);
      if (lost !== null && !told) throw new LockedError(lostLock(lost, `another job may have written there meanwhile; check it with \`evalshard verify ${slot.owner}\``));
    },
  };
}
