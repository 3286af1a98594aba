import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LockedError } from "../../src/core/errors.js";
import { lockOutput } from "../../src/output/lock-output.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 20: "In containers a SIGKILL leaves a lock that blocks every later night: the lock stores pid and
// hostname; a restarted container is PID 1 again (the liveness check finds itself alive), a new pod has a
// new hostname (treated as foreign)." These are the locks such a dead job leaves behind.
const root = tempDir("evalshard-lease-");
let counter = 0;
const freshOut = () => join(root, `out-${counter++}`);
const lockPath = (out: string) => join(out, ".evalshard.lock");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A lock file as a job killed `ageMs` ago left it (its last write, or renewal, then). */
function deadLock(out: string, content: Record<string, unknown>, ageMs: number): void {
  mkdirSync(out, { recursive: true });
  writeFileSync(lockPath(out), JSON.stringify({ started: new Date(Date.now() - 3_600_000).toISOString(), token: "killed run", ...content }));
  const then = new Date(Date.now() - ageMs);
  utimesSync(lockPath(out), then, then);
}

describe("a lock left by a killed job is not fooled by PID or hostname reuse", () => {
  it("a restarted container, PID 1 again (here: our own pid, alive), same hostname: taken over once its lease ran out", async () => {
    const out = freshOut();
    deadLock(out, { pid: process.pid, host: hostname() }, 5 * 60_000);
    const release = await lockOutput(out);
    expect(JSON.parse(readFileSync(lockPath(out), "utf8")).token).not.toBe("killed run");
    await release();
  });

  it("a new pod, a new hostname: taken over once its lease ran out", async () => {
    const out = freshOut();
    deadLock(out, { pid: 1, host: "pod-a" }, 5 * 60_000);
    const release = await lockOutput(out);
    await release();
  });

  it("the same pid in the same pid namespace, but another process (its start time differs): taken over at once", async () => {
    const out = freshOut();
    const mine = JSON.parse(readFileSync(lockPath(await heldBy(out)), "utf8"));
    expect(mine.process).not.toBeNull();
    deadLock(out, { pid: process.pid, host: "any", lease_ms: 3_600_000, process: { ...mine.process, start: mine.process.start - 1 } }, 0);
    const release = await lockOutput(out);
    await release();
  });

  it("a lease still running is refused at once, saying when it runs out, whatever the pid and host", async () => {
    for (const holder of [{ pid: 1, host: "pod-a" }, { pid: process.pid, host: hostname() }]) {
      const out = freshOut();
      deadLock(out, { ...holder, lease_ms: 30_000 }, 1_000);
      const started = Date.now();
      const error = await lockOutput(out).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(error).toBeInstanceOf(LockedError);
      expect((error as Error).message).toMatch(new RegExp(`locked by process ${holder.pid}.*lease renewed \\d+ s ago, runs out in \\d+ s`));
    }
  });
});

describe("the holder renews its lease while it runs", () => {
  it("keeps the lock file fresh, so a job that outlives the lease is still refused to others", async () => {
    const out = freshOut();
    const release = await lockOutput(out, { leaseMs: 400 });
    await sleep(1_000);
    // Renewed every 80 ms: another pod, which can only judge by the lease, sees it running.
    expect(Date.now() - statSync(lockPath(out)).mtimeMs).toBeLessThan(400);
    await expect(lockOutput(out, { leaseMs: 400 })).rejects.toThrow(LockedError);
    await release();
    const next = await lockOutput(out);
    await next();
  });

  it("a holder whose lock was taken over learns it on release", async () => {
    const out = freshOut();
    const release = await lockOutput(out, { leaseMs: 400 });
    writeFileSync(lockPath(out), JSON.stringify({ pid: 1, host: "pod-b", started: "x", token: "the other job" }));
    await sleep(300);
    await expect(release()).rejects.toThrow(/taken over/);
    expect(JSON.parse(readFileSync(lockPath(out), "utf8")).token).toBe("the other job");
  });
});

/** Takes and releases the lock once, leaving a copy of its file at `out/held.json`; returns that path's dir. */
async function heldBy(out: string): Promise<string> {
  const release = await lockOutput(out);
  const copy = join(out, "copy");
  mkdirSync(copy, { recursive: true });
  writeFileSync(lockPath(copy), readFileSync(lockPath(out)));
  await release();
  return copy;
}

describe("EVALSHARD_LOCK_LEASE_MS", () => {
  it("sets the lease; a value that is not a number of milliseconds is a ConfigError naming it", async () => {
    const { ConfigError } = await import("../../src/core/errors.js");
    const saved = process.env.EVALSHARD_LOCK_LEASE_MS;
    try {
      process.env.EVALSHARD_LOCK_LEASE_MS = "1500";
      const out = freshOut();
      const release = await lockOutput(out);
      expect(JSON.parse(readFileSync(lockPath(out), "utf8")).lease_ms).toBe(1500);
      await release();
      process.env.EVALSHARD_LOCK_LEASE_MS = "30s";
      const error = await lockOutput(freshOut()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('"30s"');
    } finally {
      if (saved === undefined) delete process.env.EVALSHARD_LOCK_LEASE_MS;
      else process.env.EVALSHARD_LOCK_LEASE_MS = saved;
    }
  });
});
