import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../src/output/manifest.js";
import { S3Storage } from "../../src/output/s3-storage.js";
import { sftRecord } from "../helpers/records.js";
import { S3RVER_KEY, s3rverCliEnv, startS3rver } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// The publish guards on object storage: a refused run leaves the current snapshot current and keeps its
// attempt under s3://BUCKET/PREFIX/_rejected/<name>/. Async spawn only: s3rver runs in this process.
const root = tempDir("evalshard-guards-s3-");
let server: S3Server;

beforeAll(async () => {
  server = await startS3rver("datasets");
});
afterAll(async () => server.stop());

const cli = (...args: string[]) => runCli(args, { env: s3rverCliEnv(server), replaceEnv: true });

describe("publish guards on object storage", () => {
  it("a wrong --format run over a good 65-row dataset publishes nothing; the attempt is kept under _rejected/", { timeout: 120_000 }, async () => {
    const input = join(root, "good.ndjson");
    writeFileSync(input, `${Array.from({ length: 65 }, (_, i) => JSON.stringify(sftRecord({ run_id: `run_${i}` }))).join("\n")}\n`);
    const good = await cli("convert", input, "--out", "s3://datasets/guarded", "--json");
    expect(good.code, good.stderr).toBe(0);
    const storage = new S3Storage("s3://datasets/guarded", { endpoint: server.endpoint, region: "us-east-1", credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY } });
    const current = await storage.current();

    const wrong = await cli("convert", input, "--out", "s3://datasets/guarded", "--format", "dpo", "--json");
    expect(wrong.code, wrong.stderr).toBe(3);
    const attempt = JSON.parse(wrong.stdout) as Manifest;
    expect(wrong.stderr).toContain(`this attempt is kept in s3://datasets/guarded/${attempt.publish.rejected_to}`);
    // The same snapshot is current, verify passes, and the refused files are where the manifest says.
    expect((await storage.current())?.snapshot).toBe(current?.snapshot);
    const verified = await cli("verify", "s3://datasets/guarded", "--json");
    expect(verified.code, verified.stdout).toBe(0);
    expect((JSON.parse(verified.stdout) as { checked: { rows: number } }).checked.rows).toBe(65);
    const kept = (await storage.list(attempt.publish.rejected_to ?? "-")).map((f) => f.path.slice((attempt.publish.rejected_to ?? "").length)).sort();
    expect(kept).toEqual(expect.arrayContaining(["README.md", "_quarantine/dpo.ndjson", "manifest.json"]));
    expect(kept.some((p) => p.startsWith("data/"))).toBe(true);
  });
});
