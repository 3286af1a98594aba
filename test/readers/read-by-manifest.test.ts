import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { s3rverCliEnv, startS3rver, type S3Server } from "../helpers/s3rver.js";
import { tempDir } from "../helpers/temp-dir.js";
import { emulator } from "../jobs/nightly/support.js";

// Issue 39: every shard path of a root manifest resolves from the dataset's root, locally and on S3 (where the
// shards live in `snapshots/<n>-<id>/`), so a reader that follows the manifest finds each shard. The README's
// snippet runs as written (its root replaced) with the venv's DuckDB and pyarrow; on S3, pyarrow's S3
// filesystem follows the root manifest against s3rver (DuckDB would need its httpfs extension, not installed here).
const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const SNIPPET = [...README.matchAll(/^```python\n([\s\S]*?)^```/gm)].map((m) => m[1] as string).find((b) => b.startsWith("# Read a dataset by its manifest"));
const READ_S3 = new URL("./read_s3_by_manifest.py", import.meta.url).pathname;
const root = tempDir("evalshard-by-manifest-");
const run = promisify(execFile);
let server: S3Server;
beforeAll(async () => {
  server = await startS3rver("datasets");
});
afterAll(async () => server.stop());

function input(n: number): string {
  const path = join(root, `in-${n}.ndjson`);
  writeFileSync(path, `${Array.from({ length: n }, (_, i) => JSON.stringify(sftRecord({ run_id: `run_${n}_${i}` }))).join("\n")}\n`);
  return path;
}

describe("reading a dataset by its root manifest", () => {
  it("locally: the README's snippet reads every row with DuckDB and pyarrow", { timeout: 120_000 }, async () => {
    expect(SNIPPET, "the README's python block starting '# Read a dataset by its manifest'").toBeDefined();
    const out = join(root, "local");
    for (const n of [12, 9]) expect((await runCli(["convert", input(n), "--out", out, "--shard-rows", "4", "--snapshot-grace", "0"])).code).toBe(0);
    const script = join(root, "snippet.py");
    writeFileSync(script, `${(SNIPPET ?? "").replace('root = "datasets/sft"', `root = ${JSON.stringify(out)}`)}\nprint(json.dumps({"rows": rows, "table": table.num_rows}))\n`);
    const { stdout } = await run(PYTHON, [RUN_AND_EXIT, script], { encoding: "utf8" });
    expect(JSON.parse(stdout)).toEqual({ rows: 9, table: 9 });
  });

  it("on S3: the root manifest names the snapshot folder's shards, and pyarrow reads them from the root", { timeout: 120_000 }, async () => {
    const env = s3rverCliEnv(server);
    const location = "s3://datasets/by-manifest";
    for (const n of [12, 9]) {
      const r = await runCli(["convert", input(n), "--out", location, "--shard-rows", "4"], { env, replaceEnv: true });
      expect(r.code, r.stderr).toBe(0);
    }
    const { stdout } = await run(PYTHON, [RUN_AND_EXIT, READ_S3, server.endpoint, "datasets/by-manifest"], { encoding: "utf8", env: { ...process.env, ...env } });
    const seen = JSON.parse(stdout) as { paths: string[]; rows: number };
    expect(seen.rows).toBe(9);
    expect(seen.paths).toHaveLength(3);
    for (const path of seen.paths) expect(path).toMatch(/^snapshots\/000002-[0-9a-f]+\/data\/train-0000\d-of-00003\.parquet$/);
    const verified = await runCli(["verify", location, "--json"], { env, replaceEnv: true });
    expect(verified.code, verified.stdout).toBe(0);
  });

  it("a nightly on S3: its root manifest names the snapshot's bucket shards, and verify checks them against its ledger", { timeout: 180_000 }, async () => {
    const emu = await emulator({ seed: 43, runs: 40 });
    const env = { ...s3rverCliEnv(server), EVAL_OWNER_TOKEN: emu.ownerToken };
    const location = "s3://datasets/by-manifest-nightly";
    const pulled = await runCli(["pull", "sft", "--base-url", emu.url, "--out", location, "--seats", "all", "--buckets", "4"], { env, replaceEnv: true });
    expect(pulled.code, pulled.stderr).toBe(0);
    const { stdout } = await run(PYTHON, [RUN_AND_EXIT, READ_S3, server.endpoint, "datasets/by-manifest-nightly"], { encoding: "utf8", env: { ...process.env, ...env } });
    const seen = JSON.parse(stdout) as { paths: string[]; rows: number };
    expect(seen.paths.map((p) => p.replace(/^snapshots\/000001-[0-9a-f]+\//, ""))).toEqual([0, 1, 2, 3].map((b) => `data/train-0000${b}-of-00004.parquet`));
    const verified = await runCli(["verify", location, "--json"], { env, replaceEnv: true });
    expect(verified.code, verified.stdout).toBe(0);
    const report = JSON.parse(verified.stdout) as { layout: string; checked: { rows: number; ledger_keys: number } };
    expect(report).toMatchObject({ layout: "huggingface-buckets", checked: { rows: seen.rows, ledger_keys: seen.rows } });
  });
});
