import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LockedError } from "../../src/core/errors.js";
import { lockOutput } from "../../src/output/lock-output.js";
import { ownIdentity } from "../../src/output/process-identity.js";
import { tempDir } from "../helpers/temp-dir.js";

const root = tempDir("evalshard-lock-");
let counter = 0;
const freshOut = () => join(root, `out-${counter++}`);

describe("lockOutput", () => {
  const lockPath = (out: string) => join(out, ".evalshard.lock");

  it("creates the lock with pid and start time, and releases it", async () => {
    const out = freshOut();
    const release = await lockOutput(out);
    const content = JSON.parse(readFileSync(lockPath(out), "utf8")) as Record<string, unknown>;
    expect(content.pid).toBe(process.pid);
    expect(Date.parse(String(content.started))).toBeLessThanOrEqual(Date.now());
    await release();
    expect(existsSync(lockPath(out))).toBe(false);
  });

  it("is never seen empty: the content is linked into place whole; a killed taker's private files are swept", async () => {
    const out = freshOut();
    mkdirSync(out, { recursive: true });
    // What a job killed mid-take leaves: its private copy, and a stale lock it had moved aside.
    writeFileSync(join(out, ".evalshard.lock.new-0123456789abcdef"), '{"pid":1}\n');
    writeFileSync(join(out, ".evalshard.lock.stale-0a0b0c0d0e0f"), '{"pid":1}\n');
    const release = await lockOutput(out);
    expect(readdirSync(out).filter((n) => n.startsWith(".evalshard")).sort()).toEqual([".evalshard.lock"]);
    expect(JSON.parse(readFileSync(lockPath(out), "utf8"))).toMatchObject({ pid: process.pid });
    await release();
    expect(readdirSync(out).filter((n) => n.startsWith(".evalshard"))).toEqual([]);
  });

  it("refuses while a live process holds it, naming the directory and the pid", async () => {
    const out = freshOut();
    const release = await lockOutput(out);
    const error = await lockOutput(out).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockedError);
    expect((error as Error).message).toContain(out);
    expect((error as Error).message).toContain(`process ${process.pid}`);
    await release();
  });

  it("takes over at once a lock whose process is gone, in the same boot and pid namespace", async () => {
    const out = freshOut();
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const identity = ownIdentity();
    mkdirSync(out, { recursive: true });
    writeFileSync(lockPath(out), JSON.stringify({ pid: dead, started: new Date().toISOString(), host: hostname(), token: "dead", lease_ms: 3_600_000, process: identity }));
    const release = await lockOutput(out);
    expect(JSON.parse(readFileSync(lockPath(out), "utf8")).pid).toBe(process.pid);
    await release();
    expect(readdirSync(out)).toEqual([]);
  });

  it("takes over a lock an older evalshard left (no lease, no process identity) once it is older than a lease", async () => {
    const out = freshOut();
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    mkdirSync(out, { recursive: true });
    writeFileSync(lockPath(out), JSON.stringify({ pid: dead, started: new Date().toISOString(), host: hostname(), token: "dead" }));
    await expect(lockOutput(out)).rejects.toThrow(/runs out in \d+ s/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath(out), old, old);
    const release = await lockOutput(out);
    await release();
    expect(readdirSync(out)).toEqual([]);
  });

  it("refuses a lock from another host, whose process it cannot check, while its lease runs", async () => {
    const out = freshOut();
    mkdirSync(out, { recursive: true });
    writeFileSync(lockPath(out), JSON.stringify({ pid: 1, started: "x", host: "elsewhere", token: "t" }));
    await expect(lockOutput(out)).rejects.toThrow(/on host elsewhere/);
  });

  it("waits out an empty lock that may still be being written, then takes it over", async () => {
    const out = freshOut();
    mkdirSync(out, { recursive: true });
    writeFileSync(lockPath(out), "");
    await expect(lockOutput(out)).rejects.toThrow(LockedError);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath(out), old, old);
    const release = await lockOutput(out);
    await release();
  });

  it("release leaves a lock that is no longer its own", async () => {
    const out = freshOut();
    const release = await lockOutput(out);
    writeFileSync(lockPath(out), JSON.stringify({ pid: process.pid, started: "x", host: hostname(), token: "someone else" }));
    await expect(release()).rejects.toThrow(/taken over by process/);
    expect(existsSync(lockPath(out))).toBe(true);
  });
});
