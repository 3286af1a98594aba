import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../src/index.js";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { sftRecord } from "../helpers/records.js";
import { startS3rver, useS3rverEnvironment } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { tempDir } from "../helpers/temp-dir.js";

// A split convert to object storage, through the CLI, against a real S3 REST server; async child processes
// only (the server answers on this thread).
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const READ = fileURLToPath(new URL("./read_s3_splits.py", import.meta.url));
const root = tempDir("evalshard-split-s3-");
let server: S3Server;

beforeAll(async () => {
  server = await startS3rver("datasets");
});
afterAll(async () => server.stop());

describe("a split dataset on object storage", () => {
  it("the card names each split's files in the snapshot folder, and datasets loads them as the manifest counts", { timeout: 180_000 }, async () => {
    const input = join(root, "in.ndjson");
    const lines = Array.from({ length: 90 }, (_, i) => JSON.stringify(sftRecord({ run_id: `run-${i}`, scenario: { campaign_id: `camp-${i % 30}`, seed: 1 } })));
    writeFileSync(input, lines.join("\n") + "\n");
    // Credentials and endpoint only in the standard AWS environment, as a user's.
    useS3rverEnvironment(server);
    const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [BIN, "convert", input, "--out", "s3://datasets/split", "--split", "train=0.6,validation=0.2,test=0.2", "--shard-rows", "10", "--json"], { env });
    const manifest = JSON.parse(stdout) as Manifest;
    const counts = Object.fromEntries(Object.entries(manifest.split!.splits).filter(([, s]) => s.rows > 0).map(([name, s]) => [name, s.rows]));
    expect(Object.keys(counts).length).toBeGreaterThan(1);
    const verified = await run(process.execPath, [BIN, "verify", "s3://datasets/split", "--json"], { env });
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
    const pyEnv = { ...env, AWS_ENDPOINT_URL: server.endpoint, HF_HOME: join(root, "hf"), HF_DATASETS_CACHE: join(root, "hf"), HF_HUB_OFFLINE: "1", HF_DATASETS_OFFLINE: "1" };
    const read = await run(PYTHON, [RUN_AND_EXIT, READ, join(root, "download"), server.endpoint, "datasets", "split"], { env: pyEnv, maxBuffer: 1 << 24 });
    expect(JSON.parse(read.stdout)).toEqual(counts);
  });
});
