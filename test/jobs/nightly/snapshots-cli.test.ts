import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { InspectResult } from "../../../src/jobs/inspect.js";
import type { NightlyManifest } from "../../../src/jobs/nightly/nightly-manifest.js";
import { PYTHON, RUN_AND_EXIT } from "../../helpers/python.js";
import { spawnCli as run } from "../../helpers/spawn-cli.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { emulator } from "./support.js";

// Pinning a night (issue 21): `pull` keeps numbered snapshots, `inspect --snapshot N` shows one, and the
// README's recipe loads one with `datasets` and DuckDB. The emulator runs in this process: spawn, never spawnSync.
const READ_SNAPSHOT = new URL("./read_local_snapshot.py", import.meta.url).pathname;
const root = tempDir("evalshard-snapshots-cli-");

describe("pinned snapshots of a local nightly dataset", () => {
  it("inspect --snapshot N shows night N after later nights; datasets and DuckDB load it from its manifest", { timeout: 180_000 }, async () => {
    const emu = await emulator({ seed: 41, runs: 60 });
    const out = join(root, "sft");
    const manifests: NightlyManifest[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await run(["pull", "sft", "--base-url", emu.url, "--out", out, "--keep-snapshots", "3", "--seats", "all", "--json"], { EVAL_OWNER_TOKEN: emu.ownerToken });
      expect(r.status, r.stderr).toBe(0);
      manifests.push(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as NightlyManifest);
      await emu.advance();
    }
    expect(manifests.map((m) => m.snapshot)).toEqual([1, 2]);
    expect(manifests[0]!.records_out).not.toBe(manifests[1]!.records_out);
    const one = await run(["inspect", out, "--snapshot", "1", "--json"]);
    expect(one.status, one.stderr).toBe(0);
    const inspected = JSON.parse(one.stdout) as InspectResult;
    expect((inspected.manifest as unknown as NightlyManifest).snapshot).toBe(1);
    expect(inspected.totalRows).toBe(manifests[0]!.records_out);
    const gone = await run(["inspect", out, "--snapshot", "9"]);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toContain("keeps 1, 2");
    const env = { ...process.env, HF_DATASETS_OFFLINE: "1", HF_HOME: join(root, "hf") };
    const { stdout } = await promisify(execFile)(PYTHON, [RUN_AND_EXIT, READ_SNAPSHOT, out, "1"], { env, encoding: "utf8" });
    expect(JSON.parse(stdout)).toEqual({ snapshot: 1, datasets_rows: manifests[0]!.records_out, duckdb_rows: manifests[0]!.records_out });
  });
});
