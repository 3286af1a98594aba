import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import { claimCommit } from "../../../src/jobs/nightly/commit-if-last.js";
import { writeStagedPart } from "../../../src/jobs/nightly/staged-part.js";
import { LocalStorage } from "../../../src/output/local-storage.js";
import { MemoryObjectStore } from "../../../src/output/memory-object-store.js";
import { ObjectStorage } from "../../../src/output/object-storage.js";
import type { Files } from "../../../src/output/storage.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { spawnCli } from "../../helpers/spawn-cli.js";
import { emulator, envFor, night, PIPELINES } from "./support.js";

// Issue 37: with `--commit last`, the part that finds every part staged and wins a conditional write commits
// the night itself: exactly one part of N, even when parts finish at once.
const root = tempDir("evalshard-commit-last-");
let n = 0;
const partitioned = (text: string) => text.replace("partition: ${EVALSHARD_PARTITION:-}", "partition: ${EVALSHARD_PARTITION:-auto}");

const stage = (files: Files, night: string, index: number, count: number, digest: string) =>
  writeStagedPart(files, { format: "evalshard-staged-part/1", night, index, count, by: "run", manifest_sha256: digest, records_out: 1, finished_at: new Date().toISOString() });

const stores: [string, () => Files][] = [
  ["local files (O_EXCL)", () => new LocalStorage(join(root, `claims-${n++}`))],
  ["the memory object store (If-None-Match: *)", () => new ObjectStorage(new MemoryObjectStore(`claims-${n++}`))],
];

describe("claimCommit: one part of N claims the night", () => {
  it.each(stores)("%s: none before all N staged; exactly one of many racing claims; a part's new share is a new claim", async (_, make) => {
    const files = make();
    for (const k of [0, 1, 2]) await stage(files, "n1", k, 4, `d${k}`);
    expect(await Promise.all([0, 1, 2].map((k) => claimCommit(files, "n1", k, 4)))).toEqual([false, false, false]);
    await stage(files, "n1", 3, 4, "d3");
    // Every part, twice over, finishing at the same moment.
    const won = await Promise.all([0, 1, 2, 3, 0, 1, 2, 3].map((k) => claimCommit(files, "n1", k, 4)));
    expect(won.filter(Boolean)).toHaveLength(1);
    // A rerun that changed nothing: the night is claimed already.
    expect(await claimCommit(files, "n1", 2, 4)).toBe(false);
    // A rerun of part 2 with another share: the new set of parts is claimed once more, by one.
    await stage(files, "n1", 2, 4, "d2-again");
    expect((await Promise.all([2, 2, 1].map((k) => claimCommit(files, "n1", k, 4)))).filter(Boolean)).toHaveLength(1);
    // Another night's claims are its own.
    for (const k of [0, 1, 2, 3]) await stage(files, "n2", k, 4, `d${k}`);
    expect(await claimCommit(files, "n2", 0, 4)).toBe(true);
  });
});

describe("run --commit last (library)", () => {
  it("4 parts at once: exactly one commits, and the night equals a single job's dataset row for row", { timeout: 120_000 }, async () => {
    const emu = await emulator({ seed: 53, runs: 120 });
    const single = join(root, "single");
    await night("nightly-sft", envFor(emu, single));
    const out = join(root, "parts");
    const parts = await Promise.all(
      [0, 1, 2, 3].map((k) => night("nightly-sft", envFor(emu, out, { SLURM_ARRAY_TASK_ID: String(k), SLURM_ARRAY_TASK_COUNT: "4", EVALSHARD_NIGHT: "n1" }), true, partitioned, { commit: "last" })),
    );
    const commits = parts.flatMap((p) => (p.commit === undefined ? [] : [p.commit]));
    expect(commits).toHaveLength(1);
    expect(commits[0]?.changed).toBe(true);
    const rows = (dir: string) =>
      readdirSync(join(dir, "data"))
        .flatMap((f) => readFileSync(join(dir, "data", f), "utf8").split("\n").filter(Boolean))
        .sort();
    expect(rows(join(out, "nightly-sft"))).toEqual(rows(join(single, "nightly-sft")));
  });

  it("refused without a partition, before anything is written", async () => {
    const emu = await emulator({ seed: 53, runs: 10 });
    const out = join(root, "no-partition");
    await expect(night("nightly-sft", envFor(emu, out), true, undefined, { commit: "last" })).rejects.toThrow(ConfigError);
    expect(existsSync(join(out, "nightly-sft"))).toBe(false);
  });

  it("the CLI: the part that stages last prints the commit's summary after the night's and exits with the commit's code; a value other than last is exit 2", { timeout: 120_000 }, async () => {
    const emu = await emulator({ seed: 54, runs: 40 });
    const out = join(root, "cli");
    const pipeline = join(PIPELINES, "nightly-sft.yaml");
    const part = (k: number, extra: string[] = ["--commit", "last"]) =>
      spawnCli(["run", pipeline, "--json", ...extra], envFor(emu, out, { EVALSHARD_PARTITION: `${k}/2`, EVALSHARD_NIGHT: "n1" }));
    const first = await part(0);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trim().split("\n")).toHaveLength(1);
    const last = await part(1);
    expect(last.status, last.stderr).toBe(0);
    const [, commit] = last.stdout.trim().split("\n");
    expect(JSON.parse(commit ?? "{}")).toMatchObject({ night: "n1", parts: 2, changed: true, snapshot: 1 });
    expect(existsSync(join(out, "nightly-sft", "manifest.json"))).toBe(true);
    expect((await part(0, ["--commit", "first"])).status).toBe(2);
  });
});
