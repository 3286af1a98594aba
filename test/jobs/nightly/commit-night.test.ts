import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PartsMissingError } from "../../../src/core/errors.js";
import { commitNight } from "../../../src/jobs/nightly/commit-night.js";
import { verify } from "../../../src/jobs/verify.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { emulator, envFor, night } from "./support.js";

// Issue 37: N parts of a night stage into OUT/_parts/, and `commit` publishes them as one snapshot.
const root = tempDir("evalshard-commit-");
let n = 0;
const out = () => join(root, `o${n++}`);
const partitioned = (text: string) => text.replace("partition: ${EVALSHARD_PARTITION:-}", "partition: ${EVALSHARD_PARTITION:-auto}");

/** Every JSONL row under a dataset's data/, sorted: the dataset row for row, whatever its shards. */
function rowsOf(dir: string): string[] {
  if (!existsSync(join(dir, "data"))) return [];
  return readdirSync(join(dir, "data"))
    .flatMap((f) => readFileSync(join(dir, "data", f), "utf8").split("\n").filter(Boolean))
    .sort();
}

/** Part k of 4 of night `label`, as a Slurm array task. */
const part = (emu: Awaited<ReturnType<typeof emulator>>, dir: string, k: number, label: string) =>
  night("nightly-sft", envFor(emu, dir, { SLURM_ARRAY_TASK_ID: String(k), SLURM_ARRAY_TASK_COUNT: "4", EVALSHARD_NIGHT: label }), true, partitioned);

describe("evalshard commit: one snapshot from N parts", () => {
  it("the committed night equals a single job's dataset row for row; a part missing publishes nothing and is named; its rerun then the commit give the uninterrupted night", async () => {
    const emu = await emulator({ seed: 51, runs: 200 });
    const single = out();
    const whole = await night("nightly-sft", envFor(emu, single));
    const dir = out();
    for (const k of [0, 1, 3]) await part(emu, dir, k, "2026-11-28");
    const commit = () => commitNight(join(dir, "nightly-sft"), { parts: 4, night: "2026-11-28" });
    await expect(commit()).rejects.toThrow(PartsMissingError);
    await expect(commit()).rejects.toThrow(/part 2 of 4 did not stage it/);
    expect(existsSync(join(dir, "nightly-sft", "manifest.json"))).toBe(false);
    await part(emu, dir, 2, "2026-11-28");
    const done = await commit();
    expect(done.changed).toBe(true);
    expect(done.manifest.records_out).toBe(whole.manifest.records_out);
    expect(done.manifest.records_in).toBe(whole.manifest.records_in);
    expect(done.manifest.dropped).toEqual(whole.manifest.dropped);
    // Issue 36: the parts' stats partials merged are the single job's stats, figure for figure (means too).
    expect(done.manifest.stats).toEqual(whole.manifest.stats);
    expect(done.manifest.stats?.rows).toBe(whole.manifest.records_out);
    expect(rowsOf(join(dir, "nightly-sft"))).toEqual(rowsOf(join(single, "nightly-sft")));
    expect(rowsOf(join(dir, "nightly-sft")).length).toBe(whole.manifest.records_out);
    const card = readFileSync(join(dir, "nightly-sft", "README.md"), "utf8");
    expect(card).toContain(`num_examples: ${whole.manifest.records_out}`);
    // An uninterrupted night of the same world commits the same shards, byte for byte.
    const straight = out();
    const pulls = [];
    for (let k = 0; k < 4; k++) pulls.push((await part(emu, straight, k, "2026-11-28")).manifest.pull);
    // Each part fetches its own runs only: no bulk stream carries the other parts' records to it.
    expect(pulls.map((p) => [p?.bulkRecords, p?.droppedOutside])).toEqual([[0, 0], [0, 0], [0, 0], [0, 0]]);
    expect(pulls.reduce((sum, p) => sum + (p?.records ?? 0), 0)).toBe(whole.manifest.pull?.records);
    const again = await commitNight(join(straight, "nightly-sft"), { parts: 4, night: "2026-11-28" });
    expect(again.manifest.shards.map((s) => [s.path, s.sha256])).toEqual(done.manifest.shards.map((s) => [s.path, s.sha256]));
    // verify reads the committed night like any dataset evalshard writes (issue 39).
    const report = await verify(join(dir, "nightly-sft"));
    expect(report.findings).toEqual([]);
    // A second commit of the same night publishes nothing new.
    expect((await commit()).changed).toBe(false);
  });

  it("a part that ran for another night since is named, and the next night's commit takes each part's new share", async () => {
    const emu = await emulator({ seed: 52, runs: 240 });
    const dir = out();
    for (let k = 0; k < 4; k++) await part(emu, dir, k, "n1");
    const first = await commitNight(join(dir, "nightly-sft"), { parts: 4, night: "n1" });
    // The world moves on until part 1's share changes (rescored runs, late flags).
    let moved = false;
    for (let i = 0; i < 4 && !moved; i++) {
      await emu.advance();
      moved = (await part(emu, dir, 1, "n2")).changed;
    }
    expect(moved).toBe(true);
    // Part 1 now holds n2's share: n1 can no longer be committed from it, nor n2 without the others.
    await expect(commitNight(join(dir, "nightly-sft"), { parts: 4, night: "n1" })).rejects.toThrow(/part 1 ran again since/);
    await expect(commitNight(join(dir, "nightly-sft"), { parts: 4, night: "n2" })).rejects.toThrow(/parts 0, 2, 3 of 4 did not stage it/);
    for (const k of [0, 2, 3]) await part(emu, dir, k, "n2");
    const second = await commitNight(join(dir, "nightly-sft"), { parts: 4, night: "n2" });
    expect(second.manifest.snapshot).toBe((first.manifest.snapshot ?? 0) + 1);
    const fresh = out();
    await night("nightly-sft", envFor(emu, fresh));
    expect(rowsOf(join(dir, "nightly-sft"))).toEqual(rowsOf(join(fresh, "nightly-sft")));
  });
});
