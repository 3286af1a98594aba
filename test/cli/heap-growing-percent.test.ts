import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emulator, envFor, PIPELINES } from "../jobs/nightly/support.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// The CLI's nightly jobs set V8's heap growing percent for their own process (docs/decisions.md, "Nightly pull
// memory: the heap's growing percent"). V8 cannot read a flag back, so EVALSHARD_DEBUG's line is what shows it;
// the nights themselves must come out the same whichever heap policy ran them.
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const root = tempDir("evalshard-heap-growing-");
const debugLine = (stderr: string) => stderr.split("\n").find((line) => line.includes("heap growing percent"));
const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as { records_out: number; changed: boolean };

/** Node itself with `args` (its own flags, then the CLI's), asynchronously: the emulator runs in this process. */
function nodeWith(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("evalshard pull and run set the heap growing percent for their night", () => {
  it("pull: 100 by default, the variable's percent, off, or the one node was started with; a bad value exits 2", async () => {
    const emu = await emulator({ seed: 7, runs: 60 });
    const pull = (out: string, env: Record<string, string>) =>
      spawnCli(["pull", "sft", "--base-url", emu.url, "--out", join(root, out), "--json"], { EVAL_OWNER_TOKEN: emu.ownerToken, EVALSHARD_DEBUG: "1", ...env });

    const byDefault = await pull("default", {});
    expect(byDefault.status, byDefault.stderr).toBe(0);
    expect(debugLine(byDefault.stderr)).toBe("evalshard: debug: heap growing percent: set to 100");

    const asked = await pull("asked", { EVALSHARD_HEAP_GROWING_PERCENT: "120" });
    expect(asked.status, asked.stderr).toBe(0);
    expect(debugLine(asked.stderr)).toBe("evalshard: debug: heap growing percent: set to 120");

    const off = await pull("off", { EVALSHARD_HEAP_GROWING_PERCENT: "off" });
    expect(off.status, off.stderr).toBe(0);
    expect(debugLine(off.stderr)).toBe("evalshard: debug: heap growing percent: V8's default (EVALSHARD_HEAP_GROWING_PERCENT=off)");

    // Node refuses the flag in NODE_OPTIONS; a user sets it on node's own command line.
    const users = await nodeWith(["--heap-growing-percent=30", BIN, "pull", "sft", "--base-url", emu.url, "--out", join(root, "users"), "--json"], { EVAL_OWNER_TOKEN: emu.ownerToken, EVALSHARD_DEBUG: "1", EVALSHARD_HEAP_GROWING_PERCENT: "120" });
    expect(users.status, users.stderr).toBe(0);
    expect(debugLine(users.stderr)).toBe("evalshard: debug: heap growing percent: kept the one node was started with");

    // Same service, same rows, whatever the heap policy.
    const rows = [byDefault, asked, off, users].map((r) => summaryOf(r.stdout).records_out);
    expect(rows[0]).toBeGreaterThan(0);
    expect(new Set(rows).size).toBe(1);

    // Without EVALSHARD_DEBUG, nothing about it on stderr.
    const quiet = await spawnCli(["pull", "sft", "--base-url", emu.url, "--out", join(root, "quiet"), "--json"], { EVAL_OWNER_TOKEN: emu.ownerToken });
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(debugLine(quiet.stderr)).toBeUndefined();

    const bad = await pull("bad", { EVALSHARD_HEAP_GROWING_PERCENT: "lots" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('EVALSHARD_HEAP_GROWING_PERCENT must be a whole percent from 1 to 1000, or off; got "lots"');
    expect(existsSync(join(root, "bad"))).toBe(false);
  }, 120_000);

  it("run: the shipped nightly pipeline sets it too", async () => {
    const emu = await emulator({ seed: 8, runs: 40 });
    const r = await spawnCli(["run", join(PIPELINES, "nightly-sft.yaml"), "--json"], { ...envFor(emu, join(root, "run")), EVALSHARD_DEBUG: "1" });
    expect(r.status, r.stderr).toBe(0);
    expect(summaryOf(r.stdout).changed).toBe(true);
    expect(debugLine(r.stderr)).toBe("evalshard: debug: heap growing percent: set to 100");
  }, 60_000);
});
