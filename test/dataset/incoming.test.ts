import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/core/sha256-hex.js";
import { shareOf } from "../../src/pull/partition.js";
import { DuplicateKeyError, IncomingBuckets } from "../../src/dataset/incoming.js";
import { tempDir } from "../helpers/temp-dir.js";
import { rec } from "./snapshot-fixtures.js";

const root = tempDir("evalshard-incoming-");
let counter = 0;
const freshDir = () => join(root, `d-${counter++}`);

describe("IncomingBuckets", () => {
  it("stages each record as a JSON line in its bucket's file and remembers where", async () => {
    const incoming = await IncomingBuckets.create(freshDir(), 3);
    // Large enough to pass the per-bucket flush size several times.
    const records = Array.from({ length: 3000 }, (_, i) => rec(`id${i}`, i % 4, "é".repeat(i % 200)));
    for (const r of records) await incoming.add(r);
    await incoming.finish();
    for (const r of records) {
      const json = JSON.stringify(r.record);
      const entry = incoming.entries.get(r.key)!;
      expect(entry).toMatchObject({ bucket: shareOf(r.key, 3), version: r.version, sha256: sha256Hex(json), length: Buffer.byteLength(json) });
      const file = readFileSync(incoming.file(entry.bucket));
      expect(file.toString("utf8", entry.offset, entry.offset + entry.length)).toBe(json);
    }
  });

  it("throws DuplicateKeyError on a key seen before", async () => {
    const incoming = await IncomingBuckets.create(freshDir(), 2);
    await incoming.add(rec("a", 1));
    await expect(incoming.add(rec("a", 2))).rejects.toThrow(DuplicateKeyError);
  });

  it("names a bad key, version or record", async () => {
    const incoming = await IncomingBuckets.create(freshDir(), 2);
    await expect(incoming.add({ key: 5 as unknown as string, version: 1, record: {} })).rejects.toThrow(/key.*number/);
    await expect(incoming.add({ key: "k", version: Number.NaN, record: {} })).rejects.toThrow(/version.*NaN/);
    await expect(incoming.add({ key: "k", version: 1, record: [] as unknown as Record<string, unknown> })).rejects.toThrow(/object/);
  });
});
