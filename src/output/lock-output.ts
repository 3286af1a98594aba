import { randomBytes } from "node:crypto";
import { link, lstat, mkdir, readdir, readFile, rename, unlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { ConfigError, IoError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import { takeLease } from "./lease-lock.js";
import type { HeldLease, LeaseClaim, LeaseLock, LeaseRecord, LeaseSlot } from "./lease-lock.js";

const LOCK = ".evalshard.lock";
/** How long a lock stays valid without renewal by default; see docs/decisions.md ("the output lock"). */
export const DEFAULT_LEASE_MS = 30_000;
/** The holder renews this many times per lease, so a few missed ticks (a busy event loop) do not lose it. */
const RENEWALS_PER_LEASE = 5;

interface LockContent extends LeaseRecord {
  readonly started: string;
  /** The holder's lease: the lock is stale once its file has not been renewed (touched) for this long. */
  readonly lease_ms?: number;
}

/** The lock file as found: its content (none when torn or foreign) and its last renewal. */
type HeldFile = HeldLease & Partial<LockContent> & { readonly mtimeMs: number };

/** Options of {@link lockOutput}. */
export interface LockOptions {
  /** The lease; default `EVALSHARD_LOCK_LEASE_MS` from the environment, else 30 s. */
  readonly leaseMs?: number;
}

/**
 * Takes `outDir/.evalshard.lock` (created with O_EXCL) as a lease that this process renews by touching
 * the file, under a per-run token (the rules of `takeLease`, lease-lock.ts). A holder known alive keeps it even past its
 * lease; an empty or torn lock file is one being written, and waited out for a default lease. Returns the
 * release function, which rejects with a `LockedError` if the lock was taken over while this job held it
 * (it had stalled for a whole lease).
 */
export async function lockOutput(outDir: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const lock = await takeOutputLock(outDir, options);
  return () => lock.release();
}

/** {@link lockOutput}, with the fence: the held lock's `check` before each switch or delete. */
export async function takeOutputLock(outDir: string, options: LockOptions = {}): Promise<LeaseLock> {
  const leaseMs = options.leaseMs ?? leaseFromEnvironment() ?? DEFAULT_LEASE_MS;
  await ioStep(outDir, "create the output directory", () => mkdir(outDir, { recursive: true }));
  return takeLease(lockFile(outDir, leaseMs), leaseMs);
}

function lockFile(outDir: string, leaseMs: number): LeaseSlot<HeldFile> {
  const path = join(outDir, LOCK);
  const lostTo = (held: Partial<LockContent> | null) =>
    `${held?.token === undefined ? "removed" : `taken over by process ${held.pid} on host ${held.host}${held.fence === undefined ? "" : ` (fence ${held.fence})`}`} while this job held it`;
  return {
    owner: outDir,
    renewalsPerLease: RENEWALS_PER_LEASE,
    aliveHolds: true,
    async read() {
      const content = await readLock(path);
      const stat = await lstat(path).catch(() => null);
      if (stat === null) return null;
      const lease = typeof content?.lease_ms === "number" && content.lease_ms > 0 ? content.lease_ms : DEFAULT_LEASE_MS;
      return { ...content, mtimeMs: stat.mtimeMs, expiresAt: stat.mtimeMs + lease };
    },
    async claim(mine, held) {
      if (held !== null) await takeOver(path, held);
      if (!(await createLock(path, contentOf(mine, leaseMs)))) return false;
      await sweepStrays(outDir);
      return true;
    },
    async renew(mine) {
      const now = new Date();
      await utimes(path, now, now).catch(() => undefined);
      const held = await readLock(path);
      return held?.token === mine.token ? true : lostTo(held);
    },
    lostTo,
    remove: () => unlink(path).catch(() => undefined),
    refusal(why, held) {
      if (why === "contended" || held === null) return `Output directory ${outDir}: could not take the lock ${path}, other jobs keep taking it`;
      if (why === "writing") return `Output directory ${outDir} is being locked by another job right now (${path} is still empty)`;
      const who = `process ${held.pid}${held.host === hostname() ? "" : ` on host ${held.host}`} (started ${held.started})`;
      if (why === "running") return `Output directory ${outDir} is locked by ${who}, which is running`;
      const now = Date.now();
      return (
        `Output directory ${outDir} is locked by ${who}: lease renewed ${Math.floor((now - held.mtimeMs) / 1000)} s ago, runs out in ${Math.ceil((held.expiresAt - now) / 1000)} s ` +
        `unless renewed; if no such job is running, a job started after that takes the lock over`
      );
    },
  };
}

function contentOf(mine: LeaseClaim, leaseMs: number): LockContent {
  const started = new Date(Date.now() - process.uptime() * 1000).toISOString();
  return { pid: process.pid, started, host: hostname(), token: mine.token, fence: mine.fence, lease_ms: leaseMs, process: mine.identity };
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
async function takeOver(path: string, stale: HeldFile): Promise<void> {
  const aside = `${path}.stale-${randomBytes(6).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch {
    return; // someone else moved it: try to create again
  }
  const moved = await readLock(aside);
  const movedStat = await lstat(aside).catch(() => null);
  if (moved?.token !== stale.token || movedStat?.mtimeMs !== stale.mtimeMs) await link(aside, path).catch(() => undefined);
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
