import { randomBytes } from "node:crypto";
import { link, lstat, mkdir, readdir, readFile, rename, unlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { ConfigError, FencedError, IoError, LockedError } from "../core/errors.js";
import { isGone, ownIdentity } from "./process-identity.js";
import type { ProcessIdentity } from "./process-identity.js";

const LOCK = ".evalshard.lock";
/** How long a lock stays valid without renewal by default; see docs/decisions.md ("the output lock"). */
export const DEFAULT_LEASE_MS = 30_000;
/** The holder renews this many times per lease, so a few missed ticks (a busy event loop) do not lose it. */
const RENEWALS_PER_LEASE = 5;

interface LockContent {
  readonly pid: number;
  readonly started: string;
  readonly host: string;
  readonly token: string;
  /**
   * The fencing token: greater than that of the lock it took over, and at least the holder's clock in ms,
   * so later holders carry larger numbers. Messages name it; ownership is the token's.
   */
  readonly fence?: number;
  /** The holder's lease: the lock is stale once its file has not been renewed (touched) for this long. */
  readonly lease_ms?: number;
  /** Present where /proc tells it: lets a job in the same pid namespace see at once that the holder died. */
  readonly process?: ProcessIdentity | null;
}

/** Options of {@link lockOutput}. */
export interface LockOptions {
  /** The lease; default `EVALSHARD_LOCK_LEASE_MS` from the environment, else 30 s. */
  readonly leaseMs?: number;
}

/** A held output lock ({@link takeOutputLock}). */
export interface OutputLock {
  /** This holder's fencing token (see docs/decisions.md, "fenced publishes"). */
  readonly fence: number;
  /**
   * Renews the lease and confirms this job still holds the lock; throws {@link FencedError} once another
   * job took it over. Called right before each step that changes what readers see (the switch, a delete).
   */
  check(): Promise<void>;
  /** Releases the lock; rejects with a `LockedError` if it was taken over while this job held it. */
  release(): Promise<void>;
}

/**
 * Takes `outDir/.evalshard.lock` (created with O_EXCL) as a lease that this process renews by a timer
 * and a per-run token. A lock is another job's, and throws {@link LockedError} at once, while its holder
 * is known alive (same boot and pid namespace: pid and start time match a live process) or, where that
 * cannot be told (another container, pod or host), while its lease runs. A pid or a hostname alone never
 * decides: both are reused. Returns the release function, which rejects with a `LockedError` if the lock
 * was taken over while this job held it (it had stalled for a whole lease).
 */
export async function lockOutput(outDir: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const lock = await takeOutputLock(outDir, options);
  return () => lock.release();
}

/** {@link lockOutput}, with the fence: the held lock's {@link OutputLock.check} before each switch or delete. */
export async function takeOutputLock(outDir: string, options: LockOptions = {}): Promise<OutputLock> {
  const leaseMs = options.leaseMs ?? leaseFromEnvironment() ?? DEFAULT_LEASE_MS;
  try {
    await mkdir(outDir, { recursive: true });
  } catch (error) {
    throw new IoError(`Cannot create the output directory ${outDir}: ${(error as Error).message}`, outDir, { cause: error });
  }
  const path = join(outDir, LOCK);
  const identity = ownIdentity();
  const token = randomBytes(8).toString("hex");
  let after = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    const mine: LockContent = {
      pid: process.pid,
      started: new Date(Date.now() - process.uptime() * 1000).toISOString(),
      host: hostname(),
      token,
      fence: Math.max(Date.now(), after + 1),
      lease_ms: leaseMs,
      process: identity,
    };
    if (await createLock(path, mine)) {
      await sweepStrays(outDir);
      return holdLease(outDir, path, mine, leaseMs);
    }
    const held = await readLock(path);
    const stat = await lstat(path).catch(() => null);
    if (stat === null) continue; // released meanwhile: try to create it again
    const refusal = liveHolder(outDir, path, held, Date.now() - stat.mtimeMs, identity);
    if (refusal !== null) throw new LockedError(refusal);
    after = Math.max(after, held?.fence ?? 0);
    await takeOver(path, held, stat.mtimeMs);
  }
  throw new LockedError(`Output directory ${outDir}: could not take the lock ${path}, other jobs keep taking it`);
}

/** Why the lock is another live job's, or null when it is stale. */
function liveHolder(outDir: string, path: string, held: LockContent | null, ageMs: number, identity: ProcessIdentity | null): string | null {
  if (held === null) {
    return ageMs < DEFAULT_LEASE_MS ? `Output directory ${outDir} is being locked by another job right now (${path} is still empty)` : null;
  }
  const who = `process ${held.pid}${held.host === hostname() ? "" : ` on host ${held.host}`} (started ${held.started})`;
  const gone = held.process == null ? undefined : isGone(held.pid, held.process, identity);
  if (gone === true) return null;
  if (gone === false) return `Output directory ${outDir} is locked by ${who}, which is running`;
  const lease = typeof held.lease_ms === "number" && held.lease_ms > 0 ? held.lease_ms : DEFAULT_LEASE_MS;
  if (ageMs >= lease) return null;
  return (
    `Output directory ${outDir} is locked by ${who}: lease renewed ${Math.floor(ageMs / 1000)} s ago, runs out in ${Math.ceil((lease - ageMs) / 1000)} s ` +
    `unless renewed; if no such job is running, a job started after that takes the lock over`
  );
}

/** Renews the lease until released; {@link OutputLock.check} and the release tell whether it was kept throughout. */
function holdLease(outDir: string, path: string, mine: LockContent, leaseMs: number): OutputLock {
  let lost: string | null = null;
  // Once check() threw, the job knows (and says) it lost the lock: its release, on the way out, says nothing more.
  let told = false;
  let renewing: Promise<void> = Promise.resolve();
  const check = (held: LockContent | null) => {
    if (held?.token !== mine.token) lost ??= held === null ? "removed" : `taken over by process ${held.pid} on host ${held.host}${held.fence === undefined ? "" : ` (fence ${held.fence})`}`;
  };
  const renew = async () => {
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined);
    check(await readLock(path));
  };
  const timer = setInterval(() => {
    renewing = (async () => {
      await renew();
      if (lost !== null) clearInterval(timer);
    })();
  }, Math.max(10, Math.floor(leaseMs / RENEWALS_PER_LEASE)));
  timer.unref(); // the lease must never keep a finished process alive
  const lostLock = (what: string) =>
    `The lock of ${outDir} was ${lost} while this job held it (fence ${mine.fence}; it had not renewed its ${leaseMs} ms lease in time, e.g. stopped or frozen): ${what}; check it with \`evalshard verify ${outDir}\``;
  return {
    fence: mine.fence ?? 0,
    async check() {
      // Renewed first: a job taking the lock over meanwhile sees the fresh time and puts it back (takeOver).
      await renewing;
      if (lost === null) await renew();
      if (lost === null) return;
      told = true;
      throw new FencedError(lostLock("this job stops here and leaves the dataset to the job that holds the lock"));
    },
    async release() {
      clearInterval(timer);
      await renewing;
      const held = await readLock(path);
      if (held?.token === mine.token) await unlink(path).catch(() => undefined);
      else check(held);
      if (lost !== null && !told) throw new LockedError(lostLock("another job may have written there meanwhile"));
    },
  };
}

/**
 * Creates the lock with its content in one step: written whole under a private name, then hard-linked to
 * `path` (which fails if it exists). A job killed while taking the lock thus never leaves an empty one,
 * which no later job could tell from a lock being written. False when the lock exists.
 */
async function createLock(path: string, mine: LockContent): Promise<boolean> {
  const temp = `${path}.new-${mine.token}`;
  try {
    await writeFile(temp, `${JSON.stringify(mine)}\n`);
    await link(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOENT: the lock's holder swept our private file away before the link (see sweepStrays): it is taken.
    if (code === "EEXIST" || code === "ENOENT") return false;
    throw new IoError(`Cannot create the lock ${path}: ${(error as Error).message}`, path, { cause: error });
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Holding the lock: deletes the private files of lock takers that were killed mid-step (`.evalshard.lock.new-…`,
 * `.evalshard.lock.stale-…`). A live taker whose file goes finds the lock held and stops.
 */
async function sweepStrays(outDir: string): Promise<void> {
  const names = await readdir(outDir).catch(() => [] as string[]);
  for (const name of names) if (name.startsWith(`${LOCK}.`)) await unlink(join(outDir, name)).catch(() => undefined);
}

/** Moves a stale lock away; puts it back if its holder renewed it or another job replaced it meanwhile. */
async function takeOver(path: string, stale: LockContent | null, mtimeMs: number): Promise<void> {
  const aside = `${path}.stale-${randomBytes(6).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch {
    return; // someone else moved it: try to create again
  }
  const moved = await readLock(aside);
  const movedStat = await lstat(aside).catch(() => null);
  if (moved?.token !== stale?.token || movedStat?.mtimeMs !== mtimeMs) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

async function readLock(path: string): Promise<LockContent | null> {
  const text = await readFile(path, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<LockContent>;
    if (typeof value.pid === "number" && typeof value.token === "string") {
      const { fence, ...rest } = value;
      const fenced = typeof fence === "number" && Number.isSafeInteger(fence) ? { fence } : {};
      return { ...rest, pid: value.pid, started: String(value.started), host: String(value.host), token: value.token, ...fenced };
    }
  } catch {
    // A torn or foreign lock file: stale once older than a lease.
  }
  return null;
}

function leaseFromEnvironment(): number | undefined {
  const text = process.env.EVALSHARD_LOCK_LEASE_MS;
  if (text === undefined || text === "") return undefined;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms < 100) {
    throw new ConfigError(`Expected EVALSHARD_LOCK_LEASE_MS to be a whole number of milliseconds from 100 up, got ${JSON.stringify(text)}`);
  }
  return ms;
}
