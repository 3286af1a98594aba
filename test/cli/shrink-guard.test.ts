import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../src/output/manifest.js";
import { S3Storage } from "../../src/output/s3-storage.js";
import { emulator, envFor, PIPELINES } from "../jobs/nightly/support.js";
import { emptiedService } from "../helpers/emptied-service.js";
import { gracelessPipeline } from "../helpers/graceless-pipeline.js";
import { readerFiles } from "../helpers/local-layout.js";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { S3RVER_KEY, s3rverCliEnv, startS3rver } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 40 through the built CLI: a run that would publish 0 rows over a dataset, or drop more than
// --max-shrink (0.5) of its rows, exits 8 and leaves the dataset byte for byte; --publish-anyway overrides.
const root = tempDir("evalshard-shrink-cli-");
let server: S3Server;
beforeAll(async () => {
  server = await startS3rver("datasets");
});
afterAll(async () => server.stop());

function sftFile(name: string, n: number): string {
  const path = join(root, name);
  writeFileSync(path, Array.from({ length: n }, (_, i) => `${JSON.stringify(sftRecord({ run_id: `run_${String(i).padStart(4, "0")}` }))}\n`).join(""));
  return path;
}
const TEN = sftFile("ten.ndjson", 10);
const FOUR = sftFile("four.ndjson", 4);
const SIX = sftFile("six.ndjson", 6);
const NONE = sftFile("none.ndjson", 0);
// The guards decide before anything is switched; the grace readers get after a switch is not their subject.
const NO_GRACE = ["--snapshot-grace", "0"];

describe("convert: an empty or shrinking run over a published dataset", () => {
  it("exits 8 and keeps the dataset; within --max-shrink, or with --publish-anyway, it publishes", { timeout: 120_000 }, async () => {
    const out = join(root, "local");
    expect((await runCli(["convert", TEN, "--out", out, ...NO_GRACE])).code).toBe(0);
    const before = readerFiles(out);

    const empty = await runCli(["convert", NONE, "--format", "sft", "--out", out, ...NO_GRACE, "--json"]);
    expect(empty.code, empty.stderr).toBe(8);
    expect(empty.stderr).toMatch(/would publish 0 rows over a dataset of 10.*previous dataset is untouched; this attempt is kept in .*_rejected\//);
    expect((JSON.parse(empty.stdout) as Manifest).publish).toMatchObject({ published: false, tripped: [{ guard: "max_shrink", actual: 1, rows_before: 10, rows_after: 0 }] });
    expect(readerFiles(out)).toEqual(before);

    // 4 of 10: 60% of the rows would go, over the default 0.5.
    const shrunk = await runCli(["convert", FOUR, "--out", out, ...NO_GRACE]);
    expect(shrunk.code, shrunk.stderr).toBe(8);
    expect(shrunk.stderr).toMatch(/drop 60\.00% of the published rows \(10 rows published, 4 now\) \(over --max-shrink 0\.5\)/);
    expect(readerFiles(out)).toEqual(before);
    expect(readdirSync(join(out, "_rejected"))).toHaveLength(2);

    // 6 of 10 is within the default; an empty run is refused whatever --max-shrink says.
    expect((await runCli(["convert", SIX, "--out", out, ...NO_GRACE])).code).toBe(0);
    expect((await runCli(["convert", NONE, "--format", "sft", "--out", out, ...NO_GRACE, "--max-shrink", "1"])).code).toBe(8);
    expect((await runCli(["convert", FOUR, "--out", out, ...NO_GRACE, "--max-shrink", "0.4"])).code).toBe(0);
    const anyway = await runCli(["convert", NONE, "--format", "sft", "--out", out, ...NO_GRACE, "--publish-anyway", "--json"]);
    expect(anyway.code).toBe(8);
    expect(anyway.stderr).toMatch(/published anyway/);
    expect((JSON.parse(anyway.stdout) as Manifest).records_out).toBe(0);
    // Over an empty dataset there is nothing to shrink.
    expect((await runCli(["convert", FOUR, "--out", out, ...NO_GRACE])).code).toBe(0);
  });

  it("a bad --max-shrink is a usage error naming the value", async () => {
    const bad = await runCli(["convert", TEN, "--out", join(root, "bad"), "--max-shrink", "1.5"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/max-shrink.*1\.5/);
  });

  it("on S3: an empty run exits 8 and the current snapshot stays current", { timeout: 120_000 }, async () => {
    const cli = (...args: string[]) => runCli(args, { env: s3rverCliEnv(server), replaceEnv: true });
    const location = "s3://datasets/shrink";
    expect((await cli("convert", TEN, "--out", location)).code).toBe(0);
    const storage = new S3Storage(location, { endpoint: server.endpoint, region: "us-east-1", credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY } });
    const current = await storage.current();
    const empty = await cli("convert", NONE, "--format", "sft", "--out", location, "--json");
    expect(empty.code, empty.stderr).toBe(8);
    const attempt = JSON.parse(empty.stdout) as Manifest;
    expect(empty.stderr).toContain(`this attempt is kept in ${location}/${attempt.publish.rejected_to}`);
    expect((await storage.current())?.snapshot).toBe(current?.snapshot);
    const verified = await cli("verify", location, "--json");
    expect(verified.code, verified.stdout).toBe(0);
    expect((JSON.parse(verified.stdout) as { checked: { rows: number } }).checked.rows).toBe(10);
  });
});

describe("run and pull: an empty night from the service", () => {
  it("run exits 8 and leaves the dataset; run --publish-anyway, --max-shrink and --min-records override the file", { timeout: 180_000 }, async () => {
    const { service, empty } = await emptiedService(await emulator({ seed: 61, runs: 60 }));
    const out = join(root, "nights");
    const env = envFor(service, out);
    const SFT = gracelessPipeline(join(PIPELINES, "nightly-sft.yaml"), root);
    const first = await spawnCli(["run", SFT, "--json"], env);
    expect(first.status, first.stderr).toBe(0);
    const dataset = join(out, "nightly-sft");
    const before = readerFiles(dataset);

    empty("runs");
    const refused = await spawnCli(["run", SFT, "--json"], env);
    expect(refused.status, refused.stderr).toBe(8);
    expect(refused.stderr).toMatch(/would publish 0 rows over a dataset of \d+/);
    expect(readerFiles(dataset)).toEqual(before);
    // --min-records names its own guard: an empty night on the file's min_records: 1 is 8 (shrink first).
    const strict = await spawnCli(["run", SFT, "--json", "--min-records", "1000"], env);
    expect(strict.status).toBe(8);
    expect(strict.stderr).toMatch(/under --min-records 1000/);

    const pulled = await spawnCli(["pull", "sft", "--base-url", service.url, "--out", dataset, "--json", ...NO_GRACE], { EVAL_OWNER_TOKEN: service.ownerToken });
    expect(pulled.status, pulled.stderr).toBe(8);
    expect(readerFiles(dataset)).toEqual(before);

    const anyway = await spawnCli(["run", SFT, "--json", "--publish-anyway"], env);
    expect(anyway.status, anyway.stderr).toBe(8);
    expect(anyway.stderr).toMatch(/published anyway/);
    expect(readerFiles(dataset)).not.toEqual(before);

    // Back to the service's runs: from an empty dataset nothing shrinks, and --min-records is the floor.
    empty("none");
    const floor = await spawnCli(["run", SFT, "--json", "--min-records", "100000"], env);
    expect(floor.status, floor.stderr).toBe(7);
    expect((await spawnCli(["run", SFT, "--json", "--max-shrink", "0.2"], env)).status).toBe(0);
  });
});
