import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/temp-dir.js";
import { spawnCli } from "../../helpers/spawn-cli.js";
import { datasetOf, emulator, envFor, PIPELINES } from "./support.js";

// Issue 33: a night runs on the one engine, main's thread by default, worker threads under --workers N.
const root = tempDir("evalshard-night-engine-");

/** The engine the night's `converted` log line names (stderr, one JSON line per phase off a terminal). */
function engineOf(stderr: string): unknown {
  const converted = stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { phase?: string; engine?: unknown })
    .find((e) => e.phase === "converted");
  return converted?.engine;
}

describe("a night's engine", () => {
  it("runs on main's thread by default and on worker threads under --workers 2, publishing the same dataset; a no-op rerun runs none", { timeout: 120_000 }, async () => {
    const emu = await emulator({ seed: 33, runs: 60 });
    const pipeline = join(PIPELINES, "nightly-rl.yaml");
    const byDefault = join(root, "default");
    const first = await spawnCli(["run", pipeline], envFor(emu, byDefault));
    expect(first.status, first.stderr).toBe(0);
    expect(engineOf(first.stderr)).toBe("parallel");
    const threads = join(root, "threads");
    const asked = await spawnCli(["run", pipeline, "--workers", "2"], envFor(emu, threads));
    expect(asked.status, asked.stderr).toBe(0);
    expect(engineOf(asked.stderr)).toBe("parallel");
    expect(datasetOf(join(threads, "nightly-rl"))).toEqual(datasetOf(join(byDefault, "nightly-rl")));

    const rerun = await spawnCli(["run", pipeline], envFor(emu, byDefault));
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ changed: false });
    expect(engineOf(rerun.stderr)).toBeUndefined();
  });
});
