import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emptiedService } from "../../helpers/emptied-service.js";
import { readerFiles } from "../../helpers/local-layout.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { emulator, envFor, night } from "./support.js";

// Issue 40: a night that would leave a published dataset empty, or drop more than --max-shrink of its rows,
// is not published (the attempt goes to _rejected/, the dataset stays byte for byte), unless publish_anyway.
const root = tempDir("evalshard-shrink-");

describe("an empty or shrinking night (library, shipped pipelines)", () => {
  it.each(["runs", "records"] as const)("a service answering no %s leaves the dataset as it was", { timeout: 120_000 }, async (how) => {
    const { service, empty } = await emptiedService(await emulator({ seed: 51, runs: 60 }));
    const out = join(root, `empty-${how}`);
    const first = await night("nightly-sft", envFor(service, out));
    expect(first.changed).toBe(true);
    const rows = first.manifest.shards.reduce((sum, s) => sum + s.rows, 0);
    expect(rows).toBeGreaterThan(0);
    const dir = join(out, "nightly-sft");
    const before = readerFiles(dir);

    empty(how);
    const second = await night("nightly-sft", envFor(service, out));
    expect(second.changed).toBe(false);
    // The shipped pipeline's min_records: 1 trips too; the shrink comes first and names the exit code (8).
    expect(second.decision).toMatchObject({ published: false, tripped: [{ guard: "max_shrink", actual: 1, rows_before: rows, rows_after: 0 }, { guard: "min_records" }] });
    expect(readerFiles(dir)).toEqual(before);
    const kept = readdirSync(join(dir, "_rejected"));
    expect(kept).toHaveLength(1);
    expect(existsSync(join(dir, "_rejected", kept[0] ?? "-", "manifest.json"))).toBe(true);
  });

  it("a night dropping over max_shrink of the rows is refused; a smaller drop, or publish_anyway, publishes", { timeout: 180_000 }, async () => {
    const big = await emulator({ seed: 52, runs: 80 });
    const small = await emulator({ seed: 52, runs: 12 });
    const out = join(root, "shrink");
    const dir = join(out, "nightly-sft");
    const first = await night("nightly-sft", envFor(big, out));
    const before = readerFiles(dir);
    const rowsBefore = first.manifest.shards.reduce((sum, s) => sum + s.rows, 0);

    const refused = await night("nightly-sft", envFor(small, out));
    const tripped = refused.decision.tripped[0];
    expect(tripped?.guard).toBe("max_shrink");
    expect(tripped?.actual).toBeGreaterThan(0.5);
    expect(refused.decision.limits.max_shrink).toBe(0.5);
    expect(readerFiles(dir)).toEqual(before);

    // The same night under a looser limit is a real shrink the operator allowed.
    const allowed = await night("nightly-sft", envFor(small, out), true, (text) => text.replace("max_shrink: 0.5", "max_shrink: 0.95"));
    expect(allowed.decision).toMatchObject({ published: true, tripped: [] });
    expect(allowed.manifest.shards.reduce((sum, s) => sum + s.rows, 0)).toBeLessThan(rowsBefore);

    const back = await night("nightly-sft", envFor(big, out));
    expect(back.decision.tripped).toEqual([]);
    const forced = await night("nightly-sft", envFor(small, out), true, (text) => `${text}publish_anyway: true\n`);
    expect(forced.changed).toBe(true);
    expect(forced.decision).toMatchObject({ published: true, tripped: [{ guard: "max_shrink" }] });
  });
});
