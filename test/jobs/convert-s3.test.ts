import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../src/output/manifest.js";
import type { VerifyReport } from "../../src/jobs/verify-report.js";
import { S3RVER_KEY, s3rverCliEnv, startS3rver } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { withoutLogLines } from "../helpers/log-lines.js";

// `convert --out s3://…` and `verify s3://…` through the CLI, against a real S3 REST server on loopback,
// with credentials and endpoint only in the standard AWS environment.
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const FIXTURES = new URL("../../fixtures/records/", import.meta.url).pathname;
let server: S3Server;

beforeAll(async () => {
  server = await startS3rver("datasets");
});
afterAll(async () => server.stop());

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliIn(process.cwd(), ...args);
}

async function cliIn(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { env: s3rverCliEnv(server), cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("convert to object storage", () => {
  it("publishes to s3://BUCKET/PREFIX, twice, and verify reads it back clean", { timeout: 120_000 }, async () => {
    for (const workers of ["2", "0"]) {
      const { code, stdout, stderr } = await cli("convert", `${FIXTURES}sft-valid.ndjson`, "--out", "s3://datasets/sft", "--workers", workers, "--json");
      expect(code, stderr).toBe(0);
      const manifest = JSON.parse(stdout) as Manifest;
      expect(manifest.records_out).toBeGreaterThan(0);
      expect(`${stdout}${stderr}`).not.toContain(S3RVER_KEY);
      const verified = await cli("verify", "s3://datasets/sft", "--json");
      expect(verified.code, verified.stderr).toBe(0);
      const report = JSON.parse(verified.stdout) as VerifyReport;
      expect(report.ok).toBe(true);
      expect(report.checked.rows).toBe(manifest.records_out);
      // Issue 38: nothing on stderr but our own lines through the AWS SDK (its NodeVersionSupportWarning was one),
      // on the Node the suite runs on; scripts/smoke.mjs checks the other supported ones.
      const foreign = withoutLogLines(`${stderr}${verified.stderr}`).split("\n").filter((line) => line !== "" && !line.startsWith("evalshard: "));
      expect(foreign).toEqual([]);
    }
  });

  it("refuses other schemes with a usage error naming them, for convert and pull alike", async () => {
    const gs = await cli("convert", `${FIXTURES}sft-valid.ndjson`, "--out", "gs://bucket/x");
    expect(gs.code).toBe(2);
    expect(gs.stderr).toContain('"gs:"');
    const cwd = mkdtempSync(join(tmpdir(), "evalshard-s3-refused-"));
    const pull = await cliIn(cwd, "pull", "sft", "--base-url", "http://127.0.0.1:9", "--out", "hf://datasets/nightly");
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain('"hf:"');
    // Refused before anything is written: no local folder named "hf:".
    expect(readdirSync(cwd)).toEqual([]);
    rmSync(cwd, { recursive: true, force: true });
  });
});
