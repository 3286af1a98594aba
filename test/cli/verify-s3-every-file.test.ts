import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerifyReport } from "../../src/index.js";
import { verify } from "../../src/jobs/verify.js";
import { S3Storage } from "../../src/output/s3-storage.js";
import { emulator } from "../pull/support.js";
import { runCli } from "../helpers/run-cli.js";
import { S3RVER_KEY, s3rverCliEnv, startS3rver, useS3rverEnvironment, type S3Server } from "../helpers/s3rver.js";

// Issue 39 item 1 on s3://: a view dataset (convert) and a `pull --view` nightly verify on a real s3rver, and a
// one-byte change in a shard, the quarantine, the snapshot's manifest or the root copy readers follow exits 5
// naming the file. Flipping the same byte again restores the object, so one dataset serves every case. The CLI
// verifies the dataset whole and with its first changed file (its exit code); the library verify the other files.
const FIXTURES = fileURLToPath(new URL("../../fixtures/records/", import.meta.url));
let server: S3Server;
beforeAll(async () => {
  server = await startS3rver("datasets");
  useS3rverEnvironment(server);
});
afterAll(async () => server.stop());

const credentials = { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY };
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...s3rverCliEnv(server), ...env }, replaceEnv: true });

async function verifyCli(location: string): Promise<{ code: number | null; report: VerifyReport }> {
  const r = await cli(["verify", location, "--json"]);
  return { code: r.code, report: JSON.parse(r.stdout) as VerifyReport };
}

/** Flips the middle byte of the object behind `path`: in the current snapshot, or at the root (`root: true`). */
async function flip(location: string, path: string, root = false): Promise<void> {
  const storage = new S3Storage(location, { endpoint: server.endpoint, region: "us-east-1", credentials });
  const prefix = location.slice(`s3://${server.bucket}/`.length);
  // A root manifest names its shards from the root (`snapshots/<id>/data/…`); other paths are the snapshot's own.
  const key = root || path.startsWith("snapshots/") ? `${prefix}/${path}` : `${prefix}/snapshots/${(await storage.current())?.snapshot}/${path}`;
  const s3 = new S3Client({ endpoint: server.endpoint, region: "us-east-1", credentials, forcePathStyle: true });
  const object = await s3.send(new GetObjectCommand({ Bucket: server.bucket, Key: key }));
  const bytes = Buffer.from(await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
  const at = bytes.length >> 1;
  bytes[at] = bytes[at]! ^ 0x01;
  await s3.send(new PutObjectCommand({ Bucket: server.bucket, Key: key, Body: bytes }));
  s3.destroy();
}

/** Each file changed by one byte fails verify naming it (the CLI's exit 5 for the first); changed back, the dataset verifies again. */
async function everyFileFails(location: string, files: readonly { path: string; root?: boolean }[]): Promise<void> {
  for (const [i, { path, root = false }] of files.entries()) {
    await flip(location, path, root);
    const label = `${path}${root ? " (root copy)" : ""}`;
    if (i === 0) {
      const { code, report } = await verifyCli(location);
      expect(code, label).toBe(5);
      expect(report.findings.map((f) => f.path)).toContain(path);
    } else {
      const report = await verify(location);
      expect(report.ok, label).toBe(false);
      expect(report.findings.map((f) => f.path)).toContain(path);
    }
    await flip(location, path, root);
  }
  expect((await verifyCli(location)).code).toBe(0);
}

describe("verify on s3://", { timeout: 180_000 }, () => {
  it("a view dataset with a quarantine (convert --view trl-kto): exit 0, then exit 5 for each file changed", async () => {
    const location = "s3://datasets/view";
    const inputs = ["views-rl.ndjson", "rl-invalid-trajectory.ndjson"].map((f) => join(FIXTURES, f));
    const converted = await cli(["convert", ...inputs, "--out", location, "--view", "trl-kto", "--max-quarantined", "1", "--json"]);
    expect(converted.code, converted.stderr).toBe(0);
    const manifest = JSON.parse(converted.stdout) as { shards: { path: string }[]; quarantine: { path: string }; view: { rows_out: number } };
    const { code, report } = await verifyCli(location);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
    expect(report.checked.rows).toBe(manifest.view.rows_out);
    await everyFileFails(location, [{ path: manifest.shards[0]!.path }, { path: manifest.quarantine.path }, { path: "manifest.json" }, { path: "manifest.json", root: true }]);
  });

  it("a nightly dataset of view rows (pull rl --view rl-steps), two nights: exit 0, then exit 5 for each file changed", async () => {
    const emu = await emulator({ seed: 40, runs: 30 });
    const location = "s3://datasets/nightly";
    for (let night = 0; night < 2; night++) {
      const pulled = await cli(["pull", "rl", "--base-url", emu.url, "--out", location, "--view", "rl-steps", "--buckets", "4"], { EVAL_OWNER_TOKEN: emu.ownerToken });
      expect(pulled.code, pulled.stderr).toBe(0);
      await emu.advance();
    }
    const { code, report } = await verifyCli(location);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
    expect(report).toMatchObject({ layout: "huggingface-buckets" });
    expect(report.checked.ledger_keys).toBe(report.checked.rows);
    const shown = await cli(["inspect", location, "--json"]);
    const shards = (JSON.parse(shown.stdout) as { manifest: { shards: { path: string; rows: number }[] } }).manifest.shards;
    await everyFileFails(location, [{ path: shards.find((s) => s.rows > 0)!.path }, { path: "manifest.json" }, { path: "manifest.json", root: true }]);
  });
});
