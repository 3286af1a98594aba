import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { writeSnapshot } from "../../src/dataset/write-snapshot.js";
import { parquetFormat } from "../../src/sinks/native-parquet-format.js";
import type { SnapshotRecord } from "../../src/dataset/incoming.js";
import { tempDir } from "../helpers/temp-dir.js";
import { iterate, jsonlOptions, jsonlRows, leftovers, rec, tree } from "./snapshot-fixtures.js";

const root = tempDir("evalshard-snapshot-prop-");
let counter = 0;
const freshOut = () => join(root, `out-${counter++}`);

const IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];
/** A snapshot: some of the ids, each at a version; a record's content follows its version. */
const snapshotArb = fc.dictionary(fc.constantFrom(...IDS), fc.integer({ min: 1, max: 3 }), { maxKeys: IDS.length });
const sequenceArb = fc.array(snapshotArb, { minLength: 1, maxLength: 5 });

const records = (s: Record<string, number>): SnapshotRecord[] => Object.entries(s).map(([id, v]) => rec(id, v));

/** Snapshots S1..Sn into one directory, then Sn alone into an empty one: both must be the same files. */
async function checkSequence(sequence: Record<string, number>[], buckets: number, extra: Partial<Parameters<typeof jsonlOptions>[1]> = {}) {
  const out = freshOut();
  let previous: Record<string, number> = {};
  for (const snapshot of sequence) {
    const result = await writeSnapshot(iterate(records(snapshot)), jsonlOptions(out, { buckets, ...extra }));
    const keys = Object.keys(snapshot);
    const kept = keys.filter((id) => id in previous);
    expect(result.added).toBe(keys.length - kept.length);
    expect(result.replaced).toBe(kept.filter((id) => previous[id] !== snapshot[id]).length);
    expect(result.unchanged).toBe(kept.filter((id) => previous[id] === snapshot[id]).length);
    expect(result.removed).toBe(Object.keys(previous).length - kept.length);
    // The first run of a directory always publishes; later ones only on a real difference.
    const first = snapshot === sequence[0];
    expect(result.changed).toBe(first || result.added + result.replaced + result.removed > 0);
    previous = snapshot;
  }
  const last = sequence.at(-1)!;
  const fresh = freshOut();
  await writeSnapshot(records(last), jsonlOptions(fresh, { buckets, ...extra }));
  expect(tree(out)).toEqual(tree(fresh));
  expect(leftovers(out)).toEqual([]);
  return { out, last };
}

describe("exactly once: any sequence of snapshots ends as one fresh conversion of the last", () => {
  it("JSONL", async () => {
    await fc.assert(
      fc.asyncProperty(sequenceArb, fc.integer({ min: 1, max: 5 }), async (sequence, buckets) => {
        const { out, last } = await checkSequence(sequence, buckets);
        expect(jsonlRows(out)).toEqual(records(last).map((r) => JSON.stringify(r.record)).sort());
      }),
      { numRuns: 60 },
    );
  });

  it("Parquet", async () => {
    const shardFormat = parquetFormat({ compression: "zstd" });
    await fc.assert(
      fc.asyncProperty(fc.array(snapshotArb, { minLength: 2, maxLength: 3 }), async (sequence) => {
        await checkSequence(sequence, 3, { shardFormat });
      }),
      { numRuns: 4 },
    );
  });
});
