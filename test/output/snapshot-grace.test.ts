import { readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/index.js";
import { sftRecord } from "../helpers/records.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 40: a reader that resolves `.evalshard-current` once (as the README advises) and reads the shards over
// a while must not meet ENOENT because a publish switched meanwhile. The replaced snapshot stays for
// `snapshotGrace` seconds after the switch; then it goes, so a recursive read finds one version (issue 39).
const root = tempDir("evalshard-grace-");

function input(name: string, n: number, tag: string): string {
  const path = join(root, name);
  writeFileSync(path, `${Array.from({ length: n }, (_, i) => JSON.stringify(sftRecord({ run_id: `${tag}_${i}` }))).join("\n")}\n`);
  return path;
}
const OLD = input("old.ndjson", 30, "old");
const NEW = input("new.ndjson", 20, "new");

/** What a reader that resolved the current snapshot once holds: its folder, and the shards its manifest names. */
function resolveOnce(out: string): { folder: string; shards: string[] } {
  const folder = join(out, readlinkSync(join(out, ".evalshard-current")));
  const manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as { shards: { path: string }[] };
  return { folder, shards: manifest.shards.map((s) => join(folder, s.path)) };
}

/** Waits (polling) until `.evalshard-current` no longer points where it did: the switch happened. */
async function switched(out: string, from: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (join(out, readlinkSync(join(out, ".evalshard-current"))) === from) {
    if (Date.now() > deadline) throw new Error("the publish never switched");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Reads every shard, one after another; the error codes met (ENOENT once the folder is gone). */
async function readAll(shards: readonly string[]): Promise<string[]> {
  const errors: string[] = [];
  for (const shard of shards) await readFile(shard).catch((error: NodeJS.ErrnoException) => errors.push(error.code ?? "?"));
  return errors;
}

describe("a replaced local snapshot stays readable for the grace, then goes", () => {
  it("a reader that resolved before the switch reads every shard after it; once the grace is over the folder is gone", { timeout: 120_000 }, async () => {
    const out = join(root, "graced");
    await convert({ inputs: [OLD], out, shardRows: 5 });
    const reader = resolveOnce(out);
    expect(reader.shards).toHaveLength(6);
    const publishing = convert({ inputs: [NEW], out, shardRows: 5, snapshotGrace: 3 });
    await switched(out, reader.folder);
    const started = Date.now();
    // After the switch, read on as a slow reader would: twice over, the shards of the version it resolved.
    expect(await readAll(reader.shards)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await readAll(reader.shards)).toEqual([]);
    const { manifest } = await publishing;
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000); // the publish waited the grace out
    expect(manifest.records_out).toBe(20);
    expect(readdirSync(join(out, ".evalshard-snapshots"))).toHaveLength(1);
    expect(await readAll(reader.shards)).toEqual(Array.from({ length: 6 }, () => "ENOENT"));
  });

  it("with a grace of 0 the same reader meets ENOENT right after the switch", { timeout: 120_000 }, async () => {
    const out = join(root, "no-grace");
    await convert({ inputs: [OLD], out, shardRows: 5 });
    const reader = resolveOnce(out);
    await convert({ inputs: [NEW], out, shardRows: 5, snapshotGrace: 0 });
    expect(await readAll(reader.shards)).toEqual(Array.from({ length: 6 }, () => "ENOENT"));
  });
});
