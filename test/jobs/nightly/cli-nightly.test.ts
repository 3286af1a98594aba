import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/temp-dir.js";
import { evalshardLeftovers } from "../../helpers/local-layout.js";
import { datasetOf, emulator, envFor, PIPELINES } from "./support.js";
import { spawnCli } from "../../helpers/spawn-cli.js";
import { CLI_BIN } from "../../helpers/run-cli.js";

// The nightly job as cron runs it: the built CLI (npm test builds first), secrets only in the environment.
const root = tempDir("evalshard-nightly-cli-");
/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
}

describe("evalshard run / pull (CLI)", () => {
  it("no secret value appears in any output file or log line (canary)", async () => {
    const emu = await emulator({ seed: 21, runs: 80, faults: "429=0.05,502=0.05,cut=0.05,partial=0.05" });
    const out = join(root, "canary");
    const env = envFor(emu, out);
    const logs: string[] = [];
    for (const p of ["nightly-sft", "nightly-rl", "nightly-dpo"]) {
      const r = await spawnCli(["run", join(PIPELINES, `${p}.yaml`)], env);
      expect(r.status, r.stderr).toBe(0);
      logs.push(r.stdout, r.stderr);
    }
    const agentKey = emu.apiKeys[0]!.api_key;
    const r = await spawnCli(["pull", "sft", "--base-url", emu.url, "--out", join(out, "agent"), "--auth", "agent", "--json"], { ...env, EVAL_API_KEY: agentKey });
    expect(r.status, r.stderr).toBe(0);
    logs.push(r.stdout, r.stderr);
    const secrets = [emu.ownerToken, agentKey];
    for (const text of [...logs, ...filesUnder(out).map((f) => readFileSync(f).toString("latin1"))]) {
      for (const secret of secrets) expect(text.includes(secret.slice(-16))).toBe(false);
    }
  });

  it("exit 4 when the service refuses the credentials, 2 when none are set", async () => {
    const emu = await emulator({ seed: 22, runs: 20 });
    const out = join(root, "auth");
    const refused = await spawnCli(["run", join(PIPELINES, "nightly-sft.yaml")], { ...envFor(emu, out), EVAL_OWNER_TOKEN: "not-a-real-token" });
    expect(refused.status).toBe(4);
    expect(refused.stderr).toMatch(/EVAL_OWNER_TOKEN/);
    expect(refused.stderr).not.toContain("not-a-real-token");
    const missing = await spawnCli(["pull", "rl", "--base-url", emu.url, "--out", out, "--auth", "agent"], { EVALSHARD_OUT: out });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/EVAL_API_KEY/);
    const playOnly = emu.apiKeys.find((k) => k.scopes.length === 1 && k.scopes[0] === "play")!;
    const forbidden = await spawnCli(["pull", "sft", "--base-url", emu.url, "--out", out, "--auth", "agent"], { EVAL_API_KEY: playOnly.api_key });
    expect(forbidden.status).toBe(4);
    expect(forbidden.stderr).toMatch(/read:scores/);
  });

  it("a job killed at random points, then rerun, ends in the same dataset", async () => {
    const emu = await emulator({ seed: 23, runs: 400 });
    const reference = join(root, "kill-ref");
    const env = envFor(emu, reference);
    expect((await spawnCli(["run", join(PIPELINES, "nightly-sft.yaml")], env)).status).toBe(0);
    const out = join(root, "kill");
    for (const delay of [150, 400, 700, 1000, 1400]) {
      await new Promise<void>((resolve) => {
        const child = spawn(process.execPath, [CLI_BIN, "run", join(PIPELINES, "nightly-sft.yaml")], { env: { PATH: process.env.PATH ?? "", ...envFor(emu, out) }, stdio: "ignore" });
        const timer = setTimeout(() => child.kill("SIGKILL"), delay);
        child.on("exit", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      const data = join(out, "nightly-sft", "data");
      for (const f of statSync(data, { throwIfNoEntry: false }) ? readdirSync(data) : []) expect(f).toMatch(/^train-\d{5}-of-\d{5}\.parquet$/);
    }
    const rerun = await spawnCli(["run", join(PIPELINES, "nightly-sft.yaml")], envFor(emu, out));
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(datasetOf(join(out, "nightly-sft"))).toEqual(datasetOf(join(reference, "nightly-sft")));
    expect(evalshardLeftovers(join(out, "nightly-sft"))).toEqual([]);
  });
});
