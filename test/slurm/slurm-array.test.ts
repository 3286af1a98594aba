import { execFile, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";
import { emulator } from "../pull/support.js";
import { PYTHON } from "../helpers/python.js";
import { s3rverCliEnv, startS3rver } from "../helpers/s3rver.js";
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
function recipe(marker: string): string {
  const blocks = [...readFileSync(join(REPO, "README.md"), "utf8").matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const found = blocks.filter((b) => b.includes(marker));
  if (found.length !== 1) throw new Error(`expected one README sh block with ${marker}, found ${found.length}`);
  return found[0] as string;
}

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
function envOf(out: string): Record<string, string> {
  return {
    ...s3rverCliEnv(server),
    PATH: `${join(work, "bin")}:${process.env.PATH ?? ""}`,
    HOME: work,
    EVAL_BASE_URL: emu.url,
    EVAL_OWNER_TOKEN: emu.ownerToken,
    EVALSHARD_OUT: out,
    EVALSHARD_NIGHT: NIGHT,
  };
}

/** The rows of the dataset at s3://datasets/PREFIX, read with boto3 and pyarrow. */
async function rowsAt(prefix: string): Promise<{ rows: number; rows_sha256: string; snapshot: number }> {
  const dir = join(work, "read", prefix);
  mkdirSync(dir, { recursive: true });
  const { stdout } = await run(PYTHON, [join(REPO, "test/slurm/read_s3_rows.py"), server.endpoint, "datasets", prefix, dir], { env: { ...process.env, ...s3rverCliEnv(server) } });
  return JSON.parse(stdout) as { rows: number; rows_sha256: string; snapshot: number };
}

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
    const whole = await rowsAt("single/nightly-sft");
    expect(whole.rows).toBeGreaterThan(0);

    const array = recipe("--array=0-3 --wrap");
    const commit = (await shell(array, envOf("s3://datasets/slurm"))).trim();
    expect(await ended(commit), taskLogs()).toEqual(["COMPLETED"]);
    expect(await rowsAt("slurm/nightly-sft")).toEqual({ ...whole, snapshot: 1 });
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
    expect(await rowsAt("rerun/nightly-sft")).toEqual({ ...whole, snapshot: 1 });
    expect(existsSync(join(work, "pipelines"))).toBe(true);
  });
});
