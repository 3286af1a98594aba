import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataset } from "../../../src/dataset/ledger.js";
import { runNightly } from "../../../src/jobs/nightly/run-nightly.js";
import type { NightlyResult } from "../../../src/jobs/nightly/run-nightly.js";
import { S3Storage } from "../../../src/output/s3-storage.js";
import { parsePipeline } from "../../../src/pipeline-file/load-pipeline.js";
import type { RunningEmulator } from "../../../src/service/index.js";
import { PYTHON, RUN_AND_EXIT } from "../../helpers/python.js";
import { S3RVER_KEY, startS3rver, useS3rverEnvironment } from "../../helpers/s3rver.js";
import type { S3Server } from "../../helpers/s3rver.js";
import { spawnCli as cli } from "../../helpers/spawn-cli.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { emulator, envFor, fastClock, PIPELINES } from "./support.js";

// Nightly pulls to s3:// (issue 21) against a real S3 REST server (s3rver) on loopback and the bundled
// emulator, both in this process: child processes are spawned asynchronously so both keep answering.
const READ_SNAPSHOT = new URL("./read_s3_snapshot.py", import.meta.url).pathname;
const root = tempDir("evalshard-nightly-s3-");
let server: S3Server;
let dirs = 0;
const local = () => join(root, `local-${dirs++}`);

beforeAll(async () => {
  server = await startS3rver("datasets");
  useS3rverEnvironment(server);
});
afterAll(async () => server.stop());

/** One night of the shipped SFT pipeline (Parquet), with `output` settings added to the file. */
async function night(emu: RunningEmulator, out: string, extra: { keep?: number; partition?: string } = {}): Promise<NightlyResult> {
  let text = readFileSync(join(PIPELINES, "nightly-sft.yaml"), "utf8");
  if (extra.keep !== undefined) text = text.replace("buckets: 16", `buckets: 16\n  keep_snapshots: ${extra.keep}`);
  const env = envFor(emu, out, extra.partition === undefined ? {} : { EVALSHARD_PARTITION: extra.partition });
  return runNightly(parsePipeline(text, "nightly-sft.yaml", env), { env, clock: fastClock(), retry: { maxAttempts: 12, baseDelayMs: 1 } });
}

/** Snapshots `numbers` of `s3://datasets/PREFIX`, read with boto3, pyarrow and `datasets` (one Python process). */
async function readSnapshots(prefix: string, numbers: readonly number[]): Promise<{ snapshot: number; rows: number; datasets_rows: number; sha256: string[] }[]> {
  const work = join(root, `read-${dirs++}`);
  const env = { ...process.env, HF_DATASETS_OFFLINE: "1", HF_HOME: join(root, "hf") };
  const { stdout } = await promisify(execFile)(PYTHON, [RUN_AND_EXIT, READ_SNAPSHOT, server.endpoint, "datasets", prefix, work, ...numbers.map(String)], { env, encoding: "utf8" });
  return stdout.trim().split("\n").map((line) => JSON.parse(line) as { snapshot: number; rows: number; datasets_rows: number; sha256: string[] });
}

/** Every object key under `prefix` in the bucket. */
async function keysUnder(prefix: string): Promise<string[]> {
  const storage = new S3Storage(`s3://datasets/${prefix}`);
  return (await storage.root.list("")).map((f) => f.path).sort();
}

const sha256Of = (r: NightlyResult) => r.manifest.shards.map((s) => s.sha256);

describe("nightly pulls to s3://BUCKET/PREFIX", () => {
  it("every changed night is a numbered snapshot, byte-equal to the same night written locally, and stays readable by its number", { timeout: 180_000 }, async () => {
    const emu = await emulator({ seed: 31, runs: 80 });
    const first = await night(emu, "s3://datasets/a");
    const firstLocal = await night(emu, local());
    expect(first.changed).toBe(true);
    expect(first.manifest.snapshot).toBe(1);
    expect(first.outDir).toBe("s3://datasets/a/nightly-sft");
    expect(sha256Of(first)).toEqual(sha256Of(firstLocal));
    const rerun = await night(emu, "s3://datasets/a");
    expect(rerun.changed).toBe(false);
    expect(rerun.manifest.snapshot).toBeNull();
    await emu.advance();
    const second = await night(emu, "s3://datasets/a");
    expect(second.manifest.snapshot).toBe(2);
    expect(sha256Of(second)).not.toEqual(sha256Of(first));
    // Snapshot 1 is still what night 1 published, whole, though night 2 replaced shards.
    const [one, two] = await readSnapshots("a/nightly-sft", [1, 2]);
    expect(one).toEqual({ snapshot: 1, rows: first.manifest.records_out, datasets_rows: first.manifest.records_out, sha256: sha256Of(first) });
    expect(two).toMatchObject({ snapshot: 2, rows: second.manifest.records_out, sha256: sha256Of(second) });
  });

  it("--keep-snapshots N keeps the N newest, locally and on S3, and deletes what no kept snapshot names", { timeout: 180_000 }, async () => {
    const emu = await emulator({ seed: 32, runs: 60 });
    const dir = local();
    const nights: NightlyResult[] = [];
    for (let i = 0; i < 3; i++) {
      nights.push(await night(emu, "s3://datasets/keep", { keep: 2 }));
      await night(emu, dir, { keep: 2 });
      await emu.advance();
    }
    expect(nights.map((r) => r.manifest.snapshot)).toEqual([1, 2, 3]);
    // Locally: next to the dataset (out of a recursive read's reach), nightly-sft.snapshots/000002 and
    // 000003, each a dataset of its own whose shards are that night's bytes.
    expect(existsSync(join(dir, "nightly-sft", "snapshots"))).toBe(false);
    const snapshots = `${join(dir, "nightly-sft")}.snapshots`;
    expect(readdirSync(snapshots).sort()).toEqual(["000002", "000003"]);
    const kept = JSON.parse(readFileSync(join(snapshots, "000002", "manifest.json"), "utf8")) as NightlyResult["manifest"];
    expect(kept.snapshot).toBe(2);
    expect(kept.shards.map((s) => createHash("sha256").update(readFileSync(join(snapshots, "000002", s.path))).digest("hex"))).toEqual(sha256Of(nights[1]!));
    // On S3: only the two kept folders remain, and no object outside them, the root copies and evalshard's own.
    const keys = await keysUnder("keep/nightly-sft");
    const folders = [...new Set(keys.filter((k) => k.startsWith("snapshots/")).map((k) => k.split("/")[1]!.slice(0, 6)))];
    expect(folders).toEqual(["000002", "000003"]);
    expect(keys.filter((k) => !k.startsWith("snapshots/") && !k.startsWith(".evalshard/"))).toEqual(["README.md", "manifest.json"]);
  });

  it("N=4 partition jobs writing to S3 prefixes hold exactly the single job's rows", { timeout: 180_000 }, async () => {
    const emu = await emulator({ seed: 33, runs: 80 });
    const single = await night(emu, "s3://datasets/single");
    const entries: string[] = [];
    let rows = 0;
    for (let k = 0; k < 4; k++) {
      const part = await night(emu, "s3://datasets/parts", { partition: `${k}/4` });
      expect(part.outDir).toBe(`s3://datasets/parts/nightly-sft/_parts/part-${k}-of-4`);
      rows += part.manifest.records_out;
      const dataset = await readDataset(new S3Storage(part.outDir));
      entries.push(...[...dataset!.ledger.values()].map((e) => JSON.stringify([e.key, e.version, e.sha256])));
    }
    const whole = await readDataset(new S3Storage(single.outDir));
    expect(rows).toBe(single.manifest.records_out);
    expect(entries.sort()).toEqual([...whole!.ledger.values()].map((e) => JSON.stringify([e.key, e.version, e.sha256])).sort());
  });

  it("an unreachable endpoint, a missing bucket or denied credentials exit non-zero naming the bucket or endpoint, never the secret; the published snapshot stays", { timeout: 180_000 }, async () => {
    const emu = await emulator({ seed: 34, runs: 30 });
    await night(emu, "s3://datasets/bad");
    await emu.advance(); // the next night would change the dataset
    const before = await keysUnder("bad/nightly-sft");
    const secret = "wrong-secret-key-4f1c9e";
    const base = { PATH: process.env.PATH ?? "", EVAL_OWNER_TOKEN: emu.ownerToken, AWS_ACCESS_KEY_ID: S3RVER_KEY, AWS_SECRET_ACCESS_KEY: S3RVER_KEY, AWS_REGION: "us-east-1", AWS_ENDPOINT_URL_S3: server.endpoint };
    const pull = (out: string, env: Record<string, string>) => cli(["pull", "sft", "--base-url", emu.url, "--out", out, "--json"], { ...base, ...env });
    // s3rver checks the access key id (not SigV4 signatures): an unknown key is denied, as S3 denies it.
    const denied = await pull("s3://datasets/bad/nightly-sft", { AWS_ACCESS_KEY_ID: "AKIAEVALSHARDDENIED0", AWS_SECRET_ACCESS_KEY: secret });
    expect(denied.status).not.toBe(0);
    expect(denied.stderr).toContain("datasets");
    const missing = await pull("s3://no-such-bucket/x", {});
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain("no-such-bucket");
    const unreachable = await pull("s3://datasets/bad/nightly-sft", { AWS_ENDPOINT_URL_S3: "http://127.0.0.1:9" });
    expect(unreachable.status).not.toBe(0);
    expect(unreachable.stderr).toContain("127.0.0.1:9");
    for (const r of [denied, missing, unreachable]) {
      expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
      expect(`${r.stdout}${r.stderr}`).not.toContain(emu.ownerToken);
    }
    expect(await keysUnder("bad/nightly-sft")).toEqual(before);
  });
});
