import { spawn } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import type { RunningEmulator } from "../../src/service/index.js";
import { emulator } from "../pull/support.js";
import { readmeBlock, recipeEnv, s3Rows } from "../helpers/scheduler-recipe.js";
import { startS3rver } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 37: the README's Kubernetes recipe, an Indexed Job of N parts and a commit Job retried until every
// part staged the night. No cluster here: each pod's container command runs as written in the README's YAML,
// with what Kubernetes gives a pod (JOB_COMPLETION_INDEX per index, the Job's env, the secrets' variables),
// all indexes at once (parallelism), against the bundled emulator and s3rver in this process.
const REPO = new URL("../..", import.meta.url).pathname;
const work = tempDir("evalshard-k8s-");
const NIGHT = "2026-11-28";
let server: S3Server;
let emu: RunningEmulator;

interface Container {
  readonly command: string[];
  readonly env?: { name: string; value: string }[];
}
interface JobDoc {
  readonly metadata: { name: string };
  readonly spec: { completions?: number; parallelism?: number; completionMode?: string; backoffLimit?: number; template: { spec: { containers: Container[] } } };
}

/** The Jobs of the README's block holding `marker`. */
function recipeJobs(marker: string): JobDoc[] {
  return parseAllDocuments(readmeBlock("yaml", marker)).map((d) => d.toJS() as JobDoc);
}

/** The container fields of the README's indented ```yaml fragment holding `marker` (command, env), as written. */
function recipeContainer(marker: string): Container {
  return parseAllDocuments(readmeBlock("yaml", marker).replace(/^ {10}/gm, ""))[0]?.toJS() as Container;
}

/** One pod's container: its command as written, with the Job's env over `env`; resolves to its exit code and stderr. */
function pod(container: Container, env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  const [file, ...args] = container.command;
  const own = Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value]));
  return new Promise((resolve) => {
    const child = spawn(file as string, args, { cwd: work, env: { ...env, ...own } });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

/** What the secrets (eval-service, the S3 writer) and the CronJob give every pod, evalshard on PATH. */
const envOf = (out: string) => recipeEnv({ server, emu, work, night: NIGHT }, out);

/** The rows of each dataset at s3://datasets/PREFIX, read with boto3 and pyarrow (as the Slurm test reads them), in one Python start. */
const rowsAt = (...prefixes: string[]) => s3Rows(server, "datasets", prefixes, work);

beforeAll(async () => {
  server = await startS3rver("datasets");
  emu = await emulator({ seed: 62, runs: 160 });
  mkdirSync(join(work, "bin"));
  symlinkSync(join(REPO, "dist/cli/main.js"), join(work, "bin", "evalshard"));
}, 120_000);
afterAll(async () => {
  await emu?.close().catch(() => undefined);
  await server?.stop();
});

describe("the README's Kubernetes recipe: an Indexed Job and a commit Job", () => {
  it("every index at once, then the commit Job (exit 10 while a part has not staged, retried): one snapshot equal to a single job's dataset, row for row", { timeout: 600_000 }, async () => {
    const [parts, commit] = recipeJobs("completionMode: Indexed");
    expect(parts?.spec).toMatchObject({ completionMode: "Indexed", completions: 4 });
    expect(commit?.spec.backoffLimit).toBeGreaterThan(0);
    const partPod = parts?.spec.template.spec.containers[0] as Container;
    const commitPod = commit?.spec.template.spec.containers[0] as Container;

    // One job of the same shipped pipeline, unpartitioned: what the night must equal.
    const whole = await pod({ command: ["evalshard", "run", "nightly-sft"] }, envOf("s3://datasets/single"));
    expect(whole.status, whole.stderr).toBe(0);

    const env = envOf("s3://datasets/k8s");
    // The commit Job starts with the parts: until every part staged the night it exits 10, and is retried.
    const early = await pod(commitPod, env);
    expect(early.status, early.stderr).toBe(10);
    const count = parts?.spec.completions ?? 0;
    const pods = await Promise.all(Array.from({ length: count }, (_, k) => pod(partPod, { ...env, JOB_COMPLETION_INDEX: String(k) })));
    for (const p of pods) expect(p.status, p.stderr).toBe(0);
    const retried = await pod(commitPod, env);
    expect(retried.status, retried.stderr).toBe(0);

    // The S3 variant's container (its own EVALSHARD_OUT and region), then the commit Job on that output.
    const s3Pod = recipeContainer("$JOB_COMPLETION_INDEX/4");
    const s3Out = s3Pod.env?.find((e) => e.name === "EVALSHARD_OUT")?.value ?? "";
    expect(s3Out).toMatch(/^s3:\/\/datasets\//);
    const s3Pods = await Promise.all(Array.from({ length: count }, (_, k) => pod(s3Pod, { ...envOf("unused"), JOB_COMPLETION_INDEX: String(k) })));
    for (const p of s3Pods) expect(p.status, p.stderr).toBe(0);
    const s3Commit = await pod(commitPod, envOf(s3Out));
    expect(s3Commit.status, s3Commit.stderr).toBe(0);
    // Each night stays where it was published: all three read back at the end, in one Python start.
    const [expected, k8s, s3Night] = await rowsAt("single/nightly-sft", "k8s/nightly-sft", `${s3Out.slice("s3://datasets/".length)}/nightly-sft`);
    expect(expected?.rows).toBeGreaterThan(0);
    expect(k8s).toEqual({ ...expected, snapshot: 1 });
    expect(s3Night).toEqual({ ...expected, snapshot: 1 });
  });
});
