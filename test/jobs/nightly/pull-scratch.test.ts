import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePipeline, runNightly } from "../../../src/index.js";
import type { PullEvent } from "../../../src/index.js";
import type { RunningEmulator } from "../../../src/service/index.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, fastClock, PIPELINES } from "./support.js";

// Issue 21: a night's pull keeps its records in a staging file in the job's local scratch (its per-run
// state in typed arrays), never all in memory; the scratch is gone after the night, whether it published
// or failed, and a full scratch disk fails the night with an error naming the file.

const BIN = new URL("../../../dist/cli/main.js", import.meta.url).pathname;
const canUnshare = spawnSync("unshare", ["-rm", "true"]).status === 0;

/** Every file under `dir`, relative, with its size. */
function filesUnder(dir: string, base = ""): { path: string; bytes: number }[] {
  return readdirSync(join(dir, base), { withFileTypes: true }).flatMap((entry) => {
    const path = join(base, entry.name);
    return entry.isDirectory() ? filesUnder(dir, path) : [{ path, bytes: statSync(join(dir, path)).size }];
  });
}

/** A night of the shipped SFT pipeline (JSONL), watching the output directory when the pull has staged every record. */
async function nightWatched(service: RunningEmulator, out: string, onBulk?: () => void) {
  const env = envFor(service, out);
  const text = readFileSync(join(PIPELINES, "nightly-sft.yaml"), "utf8").replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: none");
  let staged: { path: string; bytes: number }[] = [];
  // "scorecards" comes after every record is fetched and staged, before they are read back in list order.
  const onPullEvent = (event: PullEvent) => {
    if (event.type === "bulk") onBulk?.();
    if (event.type !== "scorecards") return;
    staged = filesUnder(out).filter((f) => /(^|\/)pull-staging-[^/]+\.ndjson$/.test(f.path));
  };
  const result = await runNightly(parsePipeline(text, "nightly-sft.yaml", env), { env, clock: fastClock(), retry: { maxAttempts: 3, baseDelayMs: 1 }, onPullEvent });
  return { result, staged };
}

const leftovers = (out: string) => filesUnder(out).filter((f) => /pull-staging|\.evalshard-tmp-/.test(f.path));

describe("a night's pull spills to the job's scratch and leaves nothing there (issue 21)", () => {
  it("stages every record in a scratch file during the pull; after the night the scratch is gone and the dataset holds every staged record", async () => {
    const emu = await emulator({ seed: 43, runs: 400 });
    const out = tempDir("evalshard-pull-scratch-");
    const { result, staged } = await nightWatched(emu, out);
    const dataset = result.outDir;
    expect(result.changed).toBe(true);
    // The records were on disk, in the night's scratch (its staging directory inside the output), not in memory.
    expect(staged).toHaveLength(1);
    const report = result.manifest.pull;
    expect(report?.records).toBeGreaterThan(100);
    // Written a chunk (up to 1 MiB, flushed when the next line would not fit) at a time: a 400-run world's
    // records fill several, so most of them are on disk while the scorecards are requested.
    expect(staged[0]?.bytes).toBeGreaterThan(1 << 19);
    expect(staged[0]?.path).toMatch(/^nightly-sft\/\.evalshard-tmp-[^/]+\/pull-staging-/);
    expect(leftovers(out)).toEqual([]);
    // The spilled records are the published ones: one ledger row per record the pull staged.
    expect(datasetOf(dataset).ledger.trim().split("\n")).toHaveLength(result.manifest.records_out);
    expect(result.manifest.records_in).toBe(report?.records);
  });

  it("a night that fails after staging leaves no scratch and the previous dataset as it was", async () => {
    const emu = await emulator({ seed: 44, runs: 120 });
    const out = tempDir("evalshard-pull-scratch-fail-");
    const dataset = (await nightWatched(emu, out)).result.outDir;
    const before = datasetOf(dataset);
    await emu.advance();
    // The service goes away once a bulk stream's records are staged: the requests after it fail, so does the night.
    const night = nightWatched(emu, out, () => void emu.close());
    await expect(night).rejects.toThrow();
    expect(leftovers(out)).toEqual([]);
    expect(datasetOf(dataset)).toEqual(before);
  });
});

describe.skipIf(!canUnshare)("a full scratch disk fails the pull with an error naming the file", () => {
  it("evalshard pull onto a tmpfs of 256 KiB: exit 1, the disk is full, the staging file named, nothing left in the output", async () => {
    const emu = await emulator({ seed: 45, runs: 400 });
    const root = tempDir("evalshard-pull-scratch-full-");
    const dir = join(root, "small");
    mkdirSync(dir);
    const out = join(dir, "ds");
    // Its own mount namespace over a small tmpfs, so the host's disk is never filled; after the pull, what
    // is left under the output is listed from inside it.
    const script = `mount -t tmpfs -o size=262144 tmpfs "$1" && "$2" "$3" pull sft --base-url "$4" --out "$5" --auth owner; echo "exit=$?"; ls -A "$5" 2>/dev/null; find "$5" -name 'pull-staging-*' 2>/dev/null`;
    const r = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      const child = spawn("unshare", ["-rm", "sh", "-c", script, "sh", dir, process.execPath, BIN, emu.url, out], { env: { PATH: process.env.PATH ?? "", EVAL_OWNER_TOKEN: emu.ownerToken } });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", () => resolve({ stdout, stderr }));
    });
    expect(r.stdout).toMatch(/^exit=1$/m);
    expect(r.stderr).toMatch(/Cannot write the pull's staging file \S+\/pull-staging-[^ ]+\.ndjson: the disk is full/);
    expect(r.stderr).toContain(out);
    expect(r.stderr).not.toContain(emu.ownerToken);
    // No staging directory, no staging file: only the lock's leftovers, if any, may remain.
    expect(r.stdout).not.toMatch(/\.evalshard-tmp-|pull-staging-/);
    expect(existsSync(out)).toBe(false); // the mount (and so the output) lived only in the child's namespace
  });
});
