import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitNight } from "../../../src/jobs/nightly/commit-night.js";
import { emptiedService } from "../../helpers/emptied-service.js";
import { readerFiles } from "../../helpers/local-layout.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { emulator, envFor, night } from "./support.js";

// Issue 37: the publish guards judge a partitioned night once, merged, in the commit; a part stages whatever
// its share holds (no rows included), and a bad night is not published over a good committed dataset.
const root = tempDir("evalshard-commit-guards-");
const partitioned = (by: "run" | "scenario") => (text: string) =>
  text.replace("partition: ${EVALSHARD_PARTITION:-}", `partition: \${EVALSHARD_PARTITION:-auto}\n  partition_by: ${by}`);

/** The committed dataset as a reader sees it; the parts' own datasets under _parts/ aside. */
const committedFiles = (dir: string) => Object.fromEntries(Object.entries(readerFiles(dir)).filter(([path]) => !path.startsWith("_parts/")));
const rowsOf = (dir: string) =>
  existsSync(join(dir, "data"))
    ? readdirSync(join(dir, "data"))
        .flatMap((f) => readFileSync(join(dir, "data", f), "utf8").split("\n").filter(Boolean))
        .sort()
    : [];

describe("publish guards of a partitioned night", () => {
  it("a part with no rows stages its share under min_records: 1; the commit judges the merged night and publishes it", { timeout: 120_000 }, async () => {
    // 8 parts by scenario over a world of fewer scenarios: some parts have none.
    const emu = await emulator({ seed: 41, runs: 40 });
    const single = join(root, "single");
    const whole = await night("nightly-sft", envFor(emu, single));
    const out = join(root, "empty-part");
    const parts = [];
    for (let k = 0; k < 8; k++) parts.push(await night("nightly-sft", envFor(emu, out, { SLURM_ARRAY_TASK_ID: String(k), SLURM_ARRAY_TASK_COUNT: "8", EVALSHARD_NIGHT: "n1" }), true, partitioned("scenario")));
    expect(parts.some((p) => p.manifest.records_out === 0)).toBe(true);
    expect(parts.map((p) => p.decision.published)).toEqual(Array(8).fill(true));
    expect(parts.every((p) => p.decision.limits.min_records === 1 && p.decision.tripped.length === 0)).toBe(true);
    const done = await commitNight(join(out, "nightly-sft"), { parts: 8, night: "n1" });
    expect(done.changed).toBe(true);
    expect(done.decision).toMatchObject({ published: true, tripped: [], limits: { min_records: 1 } });
    expect(rowsOf(join(out, "nightly-sft"))).toEqual(rowsOf(join(single, "nightly-sft")));
    expect(done.manifest.records_out).toBe(whole.manifest.records_out);
  });

  it("an empty night over a committed dataset: every part stages, the commit refuses it (max_shrink) and keeps the dataset; --publish-anyway publishes it", { timeout: 120_000 }, async () => {
    const { service, empty } = await emptiedService(await emulator({ seed: 51, runs: 60 }));
    const out = join(root, "empty-night");
    const dir = join(out, "nightly-sft");
    const part = (k: number, label: string) => night("nightly-sft", envFor(service, out, { SLURM_ARRAY_TASK_ID: String(k), SLURM_ARRAY_TASK_COUNT: "2", EVALSHARD_NIGHT: label }), true, partitioned("run"));
    for (const k of [0, 1]) await part(k, "n1");
    const first = await commitNight(dir, { parts: 2, night: "n1" });
    const rows = first.manifest.shards.reduce((sum, s) => sum + s.rows, 0);
    expect(rows).toBeGreaterThan(0);
    const before = committedFiles(dir);

    empty("records");
    for (const k of [0, 1]) expect((await part(k, "n2")).decision).toMatchObject({ published: true, tripped: [] });
    const refused = await commitNight(dir, { parts: 2, night: "n2" });
    expect(refused.changed).toBe(false);
    // The shipped pipeline's min_records: 1 trips too; the shrink comes first and names the exit code (8).
    expect(refused.decision).toMatchObject({ published: false, tripped: [{ guard: "max_shrink", actual: 1, rows_before: rows, rows_after: 0 }, { guard: "min_records" }] });
    expect(committedFiles(dir)).toEqual(before);
    const kept = readdirSync(join(dir, "_rejected"));
    expect(kept).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, "_rejected", kept[0] ?? "-", "manifest.json"), "utf8"))).toMatchObject({ night_label: "n2", records_out: 0 });

    const forced = await commitNight(dir, { parts: 2, night: "n2", publishAnyway: true });
    expect(forced.changed).toBe(true);
    expect(forced.decision).toMatchObject({ published: true, publish_anyway: true, tripped: [{ guard: "max_shrink" }, { guard: "min_records" }] });
    expect(rowsOf(dir)).toEqual([]);
  });
});
