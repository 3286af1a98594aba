import { createHash } from "node:crypto";
import { openSync, readFileSync, readSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, night } from "./support.js";

// A night keeps a published shard only when its bytes still have the sha256 the dataset's state gives it.
// Sizes alone let a shard with one byte flipped be carried forward under a fresh manifest.

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Flips one byte in the middle of a file: same size, other content. */
function flipByte(path: string): void {
  const fd = openSync(path, "r+");
  try {
    const size = readFileSync(path).length;
    const at = Math.floor(size / 2);
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, at);
    byte[0] = (byte[0] as number) ^ 0x20;
    writeSync(fd, byte, 0, 1, at);
  } finally {
    closeSync(fd);
  }
}

describe("nightly reuse checks each kept shard's sha256", () => {
  it.each([true, false])("a shard with one byte flipped is rewritten, not relinked (jsonl: %s); untouched shards are kept", async (jsonl) => {
    const emu = await emulator({ seed: 51, runs: 120 });
    const out = tempDir("evalshard-reuse-");
    const dataset = join(out, "nightly-sft");
    await night("nightly-sft", envFor(emu, out), jsonl);
    const good = datasetOf(dataset);
    const paths = Object.keys(good.shards).sort();
    expect(paths.length).toBeGreaterThan(2);
    const [victim, ...others] = paths as [string, ...string[]];
    const bytesBefore = readFileSync(join(dataset, victim));
    flipByte(join(dataset, victim));
    expect(readFileSync(join(dataset, victim)).length).toBe(bytesBefore.length);
    expect(sha256(join(dataset, victim))).not.toBe(good.shards[victim]);

    // The service has not changed: only the corrupt shard has to be written again.
    const second = await night("nightly-sft", envFor(emu, out), jsonl);
    expect(second.changed).toBe(true);
    // Only the corrupt shard's bucket was written; the others were kept as they were.
    expect(second.manifest.night.buckets_rewritten).toHaveLength(1);
    expect(datasetOf(dataset)).toEqual(good);
    for (const path of paths) expect(sha256(join(dataset, path)), path).toBe(good.shards[path]);
    expect(readFileSync(join(dataset, victim))).toEqual(bytesBefore);
    const manifest = JSON.parse(readFileSync(join(dataset, "manifest.json"), "utf8")) as { shards?: { path: string; sha256: string }[] };
    for (const shard of manifest.shards ?? []) expect(sha256(join(dataset, shard.path)), shard.path).toBe(shard.sha256);

    // A third night over an intact dataset changes nothing.
    const third = await night("nightly-sft", envFor(emu, out), jsonl);
    expect(third.changed).toBe(false);
    expect(others.length).toBe(paths.length - 1);
  });
});
