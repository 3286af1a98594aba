import { execFile, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";
import { emulator } from "../pull/support.js";
import { readmeBlock, recipeEnv, s3Rows } from "../helpers/scheduler-recipe.js";
import { startS3rver } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 37 on a real scheduler: a one-node Slurm cluster (scripts/slurm-cluster.sh installs and starts it;
// we are root), the README's Slurm recipe run as written against the bundled emulator and s3rver, both in
// this process on loopback (so every child is spawned asynchronously, and they keep answering).
const REPO = new URL("../..", import.meta.url).pathname;
const run = promisify(execFile);
const work = tempDir("evalshard-slurm-");
const NIGHT = "2026-11-28";
let server: S3Server;
let emu: RunningEmulator;

/** The README's ```sh block holding `marker`, as written. */
const recipe = (marker: string) => readmeBlock("sh", marker);

/** Runs a recipe with sh in the work directory, as an operator's shell would; returns its stdout. */
function shell(text: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-ec", text], { cwd: work, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => (status === 0 ? resolve(stdout) : reject(new Error(`recipe exited ${status}: ${stderr}`))));
  });
}

/** A job's state once it ended (COMPLETED, FAILED, CANCELLED…), polled from slurmctld. */
async function ended(job: string): Promise<string[]> {
  for (let i = 0; i < 600; i++) {
    const { stdout } = await run("scontrol", ["show", "job", "-o", job]);
    const states = [...stdout.matchAll(/JobState=(\w+)/g)].map((m) => m[1] as string);
    if (states.length > 0 && states.every((s) => !["PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED"].includes(s))) return states;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`job ${job} did not end`);
}

/** The environment the recipe's shell starts with: the service, S3 and evalshard on PATH. */
const envOf = (out: string) => recipeEnv({ server, emu, work, night: NIGHT }, out);

/** The rows of each dataset at s3://datasets/PREFIX, read with boto3 and pyarrow (one Python start). */
const rowsAt = (...prefixes: string[]) => s3Rows(server, "datasets", prefixes, work);

/** What the tasks wrote, for a failure's message. */
function taskLogs(): string {
  return readdirSync(work).filter((f) => f.startsWith("slurm-")).map((f) => `${f}:\n${readFileSync(join(work, f), "utf8")}`).join("\n");
}

beforeAll(async () => {
  await run("sh", [join(REPO, "scripts/slurm-cluster.sh")], { timeout: 600_000 });
  server = await startS3rver("datasets");
  emu = await emulator({ seed: 61, runs: 200 });
  cpSync(join(REPO, "pipelines"), join(work, "pipelines"), { recursive: true });
  mkdirSync(join(work, "bin"));
  symlinkSync(join(REPO, "dist/cli/main.js"), join(work, "bin", "evalshard"));
}, 600_000);
afterAll(async () => {
  await emu?.close().catch(() => undefined);
  await server?.stop();
});

describe("the README's Slurm recipe on a real Slurm cluster", () => {
  it("sbatch --array=0-3 then a commit job afterok: one snapshot equal to a single job's dataset, row for row; scancel of a task publishes nothing, and its rerun then the commit give the same dataset", { timeout: 900_000 }, async () => {
    const single = await spawnCli(["run", join(work, "pipelines/nightly-sft.yaml")], envOf("s3://datasets/single"));
    expect(single.status, single.stderr).toBe(0);

    const array = recipe("--array=0-3 --wrap");
    const commit = (await shell(array, envOf("s3://datasets/slurm"))).trim();
    expect(await ended(commit), taskLogs()).toEqual(["COMPLETED"]);
    // The committed night on S3 verifies like any dataset (issue 39).
    const verified = await spawnCli(["verify", "s3://datasets/slurm/nightly-sft", "--json"], envOf("s3://datasets/slurm"));
    expect(verified.status, verified.stdout).toBe(0);

    // Another night's output: task 3 cancelled as soon as the array is queued (two CPUs run 0 and 1 first).
    const cancelled = (await shell(array, envOf("s3://datasets/rerun"))).trim();
    const { stdout: job } = await run("scontrol", ["show", "job", "-o", cancelled]);
    const arrayId = /Dependency=afterok:(\d+)/.exec(job)?.[1];
    expect(arrayId).toBeDefined();
    await run("scancel", [`${arrayId}_3`]);
    expect(await ended(cancelled)).not.toEqual(["COMPLETED"]);
    await ended(arrayId as string);
    expect((await spawnCli(["commit", "s3://datasets/rerun/nightly-sft", "--parts", "4", "--night", NIGHT], envOf("s3://datasets/rerun"))).status).toBe(10);
    const rerun = (await shell(recipe("--array=3 --wrap"), envOf("s3://datasets/rerun"))).trim();
    expect(await ended(rerun), taskLogs()).toEqual(["COMPLETED"]);
    // Each night stays where it was published: all three read back at the end, in one Python start.
    const [whole, slurm, rerunRows] = await rowsAt("single/nightly-sft", "slurm/nightly-sft", "rerun/nightly-sft");
    expect(whole?.rows).toBeGreaterThan(0);
    expect(slurm).toEqual({ ...whole, snapshot: 1 });
    expect(rerunRows).toEqual({ ...whole, snapshot: 1 });
    expect(existsSync(join(work, "pipelines"))).toBe(true);
  });
});
