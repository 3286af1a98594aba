import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { S3RVER_KEY, s3rverCliEnv, startS3rver, type S3Server } from "../helpers/s3rver.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 20: "`evalshard verify DIR` (local, and object storage once it exists)"; inspect too. Both read an
// s3:// dataset through its Storage (the current snapshot), against a real s3rver in this process (async spawn).
const root = tempDir("evalshard-verify-s3-");
let server: S3Server;
beforeAll(async () => {
  server = await startS3rver("datasets");
});
afterAll(async () => server.stop());

const cli = (...args: string[]) => runCli(args, { env: s3rverCliEnv(server), replaceEnv: true });
const credentials = { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY };

/** Flips one byte in the middle of the object `path` names: a root manifest's paths resolve from the root (issue 39). */
async function tamper(location: string, path: string): Promise<void> {
  expect(path).toMatch(/^snapshots\/\d{6}-[0-9a-f]+\/data\//);
  const key = `${location.slice(`s3://${server.bucket}/`.length)}/${path}`;
  const s3 = new S3Client({ endpoint: server.endpoint, region: "us-east-1", credentials, forcePathStyle: true });
  const object = await s3.send(new GetObjectCommand({ Bucket: server.bucket, Key: key }));
  const bytes = Buffer.from(await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
  const at = bytes.length >> 1;
  bytes[at] = (bytes[at] as number) ^ 0x01;
  await s3.send(new PutObjectCommand({ Bucket: server.bucket, Key: key, Body: bytes }));
  s3.destroy();
}

describe("verify and inspect on s3://", { timeout: 120_000 }, () => {
  for (const to of ["parquet", "jsonl"] as const) {
    it(`${to}: inspect shows the manifest, warnings and rows; verify passes, and fails after a one-byte tamper`, async () => {
      const input = join(root, `${to}.ndjson`);
      const lines = Array.from({ length: 30 }, (_, i) => JSON.stringify(sftRecord({ run_id: `run_${i}` })));
      writeFileSync(input, `${[...lines, lines[0]].join("\n")}\n`);
      const location = `s3://datasets/verify-${to}`;
      const converted = await cli("convert", input, "--out", location, "--to", to, "--json");
      expect(converted.code, converted.stderr).toBe(0);

      const shown = await cli("inspect", location, "--json", "--rows", "3");
      expect(shown.code, shown.stderr).toBe(0);
      const result = JSON.parse(shown.stdout) as { manifest: { records_out: number; dropped: Record<string, number>; shards: { path: string }[] }; totalRows: number; rows: { run_id: string }[] };
      expect(result.manifest).toMatchObject({ records_out: 30, dropped: { duplicate: 1 } });
      expect(result.totalRows).toBe(30);
      expect(result.rows.map((r) => r.run_id)).toEqual(["run_0", "run_1", "run_2"]);
      const text = await cli("inspect", location);
      expect(text.stdout).toMatch(/^warning: participation_gated: no scorecards were given/m);

      const verified = await cli("verify", location, "--json");
      expect(verified.code, verified.stdout).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, checked: { rows: 30 } });

      const shard = result.manifest.shards[0]?.path ?? "-";
      await tamper(location, shard);
      const failed = await cli("verify", location, "--json");
      expect(failed.code).toBe(5);
      const report = JSON.parse(failed.stdout) as { ok: boolean; findings: { kind: string; path: string }[] };
      expect(report.ok).toBe(false);
      expect(report.findings).toContainEqual(expect.objectContaining({ kind: "sha256_mismatch", path: shard }));
    });
  }
});
