import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../../helpers/flow.js";
import { tempDir } from "../../../helpers/temp-dir.js";

// `--workers 0`: the parallel engine's units run on main's own thread. A preload makes any worker thread fail
// the run, so the run proves none was started; the same preload with a worker fails (the test can fail).
const BIN = new URL("../../../../dist/cli/main.js", import.meta.url).pathname;
const NO_THREADS = new URL("./helpers/no-worker-threads.mjs", import.meta.url).href;
const root = tempDir();

function convertWithoutThreads(workers: string, extra: readonly string[] = []) {
  const out = join(root, `out-${workers}-${extra.length}`);
  const inputs = ["sft-valid", "sft-duplicates", "sft-bad-lines"].map((n) => `${FIXTURES}records/${n}.ndjson`);
  const r = spawnSync(process.execPath, ["--import", NO_THREADS, BIN, "convert", ...inputs, "--out", out, "--workers", workers, "--publish-anyway", ...extra], { encoding: "utf8" });
  return { ...r, out };
}

describe("--workers 0: the parallel engine without worker threads", () => {
  it("converts on the main thread alone, and writes what worker threads write", () => {
    const r = convertWithoutThreads("0");
    expect(r.stderr).not.toMatch(/worker thread was started/);
    expect(r.stdout).toMatch(/wrote 1 shard/);
    const manifest = JSON.parse(readFileSync(join(r.out, "manifest.json"), "utf8")) as { output: { engine: string }; records_out: number; shards: { sha256: string }[] };
    expect(manifest.output.engine).toBe("parallel");
    expect(manifest.records_out).toBeGreaterThan(0);
    const threaded = spawnSync(process.execPath, [BIN, "convert", ...["sft-valid", "sft-duplicates", "sft-bad-lines"].map((n) => `${FIXTURES}records/${n}.ndjson`), "--out", join(root, "threaded"), "--workers", "2", "--publish-anyway"], { encoding: "utf8" });
    expect(threaded.stdout).toMatch(/wrote 1 shard/);
    const other = JSON.parse(readFileSync(join(root, "threaded", "manifest.json"), "utf8")) as typeof manifest;
    expect(manifest.shards).toEqual(other.shards);
  });

  it("ranks on the main thread too (--top-k-per-scenario reads twice)", () => {
    const r = convertWithoutThreads("0", ["--top-k-per-scenario", "1"]);
    expect(r.stderr).not.toMatch(/worker thread was started/);
    expect(r.stdout).toMatch(/wrote 1 shard/);
  });

  it("the preload does stop a run that starts a worker thread", () => {
    const r = convertWithoutThreads("1");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/worker thread was started/);
  });
});
