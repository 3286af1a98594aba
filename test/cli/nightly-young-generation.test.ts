import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { emulator, envFor, PIPELINES } from "../jobs/nightly/support.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// The CLI's nightly jobs restart node in place with a small young generation (docs/decisions.md, "Nightly pull
// memory on Node 24: the young generation"). The restarted process says, with EVALSHARD_DEBUG, the flag its own
// node runs with (process.execArgv): the one observable of the restart; the nights must come out the same.
const RL = fileURLToPath(new URL("../../fixtures/records/views-rl.ndjson", import.meta.url));
const root = tempDir("evalshard-young-generation-");
const debugLines = (stderr: string) => stderr.split("\n").filter((line) => line.includes("young generation"));
const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as { records_out: number; changed: boolean };
const said = (what: string) => `evalshard: debug: young generation: ${what}`;

describe("evalshard pull and run restart with --max-semi-space-size for their night", () => {
  it("pull: 8 MB by default, the variable's MB, off, or the size node was started with; a bad value exits 2", async () => {
    const emu = await emulator({ seed: 7, runs: 60 });
    const pull = (out: string, env: Record<string, string>) =>
      spawnCli(["pull", "sft", "--base-url", emu.url, "--out", join(root, out), "--json"], { EVAL_OWNER_TOKEN: emu.ownerToken, EVALSHARD_DEBUG: "1", ...env });

    const byDefault = await pull("default", {});
    expect(byDefault.status, byDefault.stderr).toBe(0);
    expect(debugLines(byDefault.stderr)).toEqual([said("restarting node with --max-semi-space-size=8"), said("node runs with --max-semi-space-size=8")]);

    const asked = await pull("asked", { EVALSHARD_SEMI_SPACE_MB: "12" });
    expect(asked.status, asked.stderr).toBe(0);
    expect(debugLines(asked.stderr)).toEqual([said("restarting node with --max-semi-space-size=12"), said("node runs with --max-semi-space-size=12")]);

    const off = await pull("off", { EVALSHARD_SEMI_SPACE_MB: "off" });
    expect(off.status, off.stderr).toBe(0);
    expect(debugLines(off.stderr)).toEqual([said("V8's default (EVALSHARD_SEMI_SPACE_MB=off)")]);

    // Node accepts this flag in NODE_OPTIONS: a user's size wins over the variable, with no restart.
    const users = await pull("users", { NODE_OPTIONS: "--max-semi-space-size=24", EVALSHARD_SEMI_SPACE_MB: "12" });
    expect(users.status, users.stderr).toBe(0);
    expect(debugLines(users.stderr)).toEqual([said("node runs with --max-semi-space-size=24")]);

    const rows = [byDefault, asked, off, users].map((r) => summaryOf(r.stdout).records_out);
    expect(rows[0]).toBeGreaterThan(0);
    expect(new Set(rows).size).toBe(1);

    const quiet = await spawnCli(["pull", "sft", "--base-url", emu.url, "--out", join(root, "quiet"), "--json"], { EVAL_OWNER_TOKEN: emu.ownerToken });
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(debugLines(quiet.stderr)).toEqual([]);

    const bad = await pull("bad", { EVALSHARD_SEMI_SPACE_MB: "lots" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('evalshard: EVALSHARD_SEMI_SPACE_MB must be a whole number of MB from 1 to 1024, or off; got "lots"\n');
    expect(existsSync(join(root, "bad"))).toBe(false);
  }, 120_000);

  it("run restarts for the shipped nightly pipeline; convert keeps V8's sizing", async () => {
    const emu = await emulator({ seed: 8, runs: 40 });
    const r = await spawnCli(["run", join(PIPELINES, "nightly-sft.yaml"), "--json"], { ...envFor(emu, join(root, "run")), EVALSHARD_DEBUG: "1" });
    expect(r.status, r.stderr).toBe(0);
    expect(summaryOf(r.stdout).changed).toBe(true);
    expect(debugLines(r.stderr)).toEqual([said("restarting node with --max-semi-space-size=8"), said("node runs with --max-semi-space-size=8")]);

    const convert = await spawnCli(["convert", RL, "--out", join(root, "convert")], { EVALSHARD_DEBUG: "1", EVALSHARD_SEMI_SPACE_MB: "lots" });
    expect(convert.status, convert.stderr).toBe(0);
    expect(debugLines(convert.stderr)).toEqual([]);
  }, 60_000);
});
