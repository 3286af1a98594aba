import { readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DuplicateKeyError } from "../../src/dataset/incoming.js";
import { writeSnapshot } from "../../src/dataset/write-snapshot.js";
import { ConfigError, LockedError } from "../../src/core/errors.js";
import { rl } from "../../src/formats/rl.js";
import { parquetFormat } from "../../src/sinks/native-parquet-format.js";
import { readParquetRows } from "../helpers/read-parquet.js";
import { tempDir } from "../helpers/temp-dir.js";
import { COLUMNS, iterate, jsonlOptions, jsonlRows, leftovers, rec, snapshot, tree } from "./snapshot-fixtures.js";

const root = tempDir("evalshard-snapshot-");
let counter = 0;
const freshOut = () => join(root, `out-${counter++}`);

const S1 = snapshot({ a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1 });

/** Inode and mtime of every published file: unchanged means not rewritten. */
function stamps(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of Object.keys(tree(dir))) {
    const s = statSync(join(dir, path));
    out[path] = `${s.ino}:${s.mtimeMs}`;
  }
  return out;
}

describe("a first snapshot", () => {
  it("writes one shard per non-empty bucket, rows sorted by key, with a ledger and a state", async () => {
    const out = freshOut();
    const result = await writeSnapshot(iterate(S1), jsonlOptions(out));
    expect(result).toMatchObject({ added: 8, replaced: 0, removed: 0, unchanged: 0, changed: true });
    const files = readdirSync(join(out, "data")).sort();
    expect(files.every((f) => /^train-0000[0-3]-of-00004\.jsonl$/.test(f))).toBe(true);
    expect(result.shards.map((s) => s.path)).toEqual(files.map((f) => `data/${f}`));
    expect(result.bucketsRewritten).toEqual(files.map((f) => Number(f.slice(6, 11))));
    for (const f of files) {
      const ids = readFileSync(join(out, "data", f), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { id: string }).id);
      expect(ids).toEqual([...ids].sort());
    }
    expect(jsonlRows(out)).toEqual(S1.map((r) => JSON.stringify(r.record)).sort());
    const ledger = readFileSync(join(out, "_state/ledger.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { key: string });
    expect(ledger.map((e) => e.key)).toEqual(S1.map((r) => r.key).sort());
    const state = JSON.parse(readFileSync(join(out, "_state/state.json"), "utf8")) as { buckets: number; rows: number; format: unknown };
    expect(state).toMatchObject({ buckets: 4, rows: 8, format: { name: "sft", version: "1.1" } });
    expect(leftovers(out)).toEqual([]);
  });

  it("of nothing publishes an empty data/ and a state", async () => {
    const out = freshOut();
    const result = await writeSnapshot([], jsonlOptions(out));
    expect(result).toMatchObject({ added: 0, changed: true, shards: [] });
    expect(readdirSync(join(out, "data"))).toEqual([]);
    expect(Object.keys(tree(out)).sort()).toEqual(["_state/ledger.ndjson", "_state/state.json"]);
  });
});

describe("a night with nothing new", () => {
  it("changes nothing: no file rewritten, extra files not written", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out, { extraFiles: { "manifest.json": "night 1" } }));
    const before = stamps(out);
    const result = await writeSnapshot([...S1].reverse(), jsonlOptions(out, { extraFiles: { "manifest.json": "night 2" } }));
    expect(result).toMatchObject({ added: 0, replaced: 0, removed: 0, unchanged: 8, changed: false, bucketsRewritten: [] });
    expect(result.shards.length).toBeGreaterThan(0);
    expect(stamps(out)).toEqual(before);
    expect(readFileSync(join(out, "manifest.json"), "utf8")).toBe("night 1");
    expect(leftovers(out)).toEqual([]);
  });
});

describe("a rescored record", () => {
  it("replaces its older version, rewriting only its bucket and hard-linking the others", async () => {
    const out = freshOut();
    const first = await writeSnapshot(S1, jsonlOptions(out));
    const before = stamps(out);
    const S2 = S1.map((r) => (r.key === '["c"]' ? rec("c", 2) : r));
    const result = await writeSnapshot(S2, jsonlOptions(out));
    expect(result).toMatchObject({ added: 0, replaced: 1, removed: 0, unchanged: 7, changed: true });
    expect(result.bucketsRewritten).toHaveLength(1);
    const rewritten = result.shards.find((s) => s.path.includes(`train-0000${result.bucketsRewritten[0]}-`))!;
    const after = stamps(out);
    for (const shard of first.shards) {
      if (shard.path === rewritten.path) expect(after[shard.path]).not.toBe(before[shard.path]);
      else expect(after[shard.path]?.split(":")[0]).toBe(before[shard.path]?.split(":")[0]);
    }
    expect(jsonlRows(out)).toEqual(S2.map((r) => JSON.stringify(r.record)).sort());
  });

  it("counts a version bump with the same content as replaced but rewrites no shard", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out));
    const S2 = S1.map((r) => (r.key === '["c"]' ? { ...r, version: 9 } : r));
    const result = await writeSnapshot(S2, jsonlOptions(out));
    expect(result).toMatchObject({ replaced: 1, changed: true, bucketsRewritten: [] });
    expect(readFileSync(join(out, "_state/ledger.ndjson"), "utf8")).toContain('"version":9');
  });
});

describe("a record gone from the snapshot", () => {
  it("is removed; a bucket left empty loses its shard", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out));
    const result = await writeSnapshot(S1.slice(0, 1), jsonlOptions(out));
    expect(result).toMatchObject({ added: 0, removed: 7, unchanged: 1, changed: true });
    expect(readdirSync(join(out, "data"))).toHaveLength(1);
    expect(jsonlRows(out)).toEqual([JSON.stringify(S1[0]!.record)]);
  });
});

describe("a shard deleted by hand", () => {
  it("is written again on the next run", async () => {
    const out = freshOut();
    const first = await writeSnapshot(S1, jsonlOptions(out));
    unlinkSync(join(out, first.shards[0]!.path));
    const result = await writeSnapshot(S1, jsonlOptions(out));
    expect(result).toMatchObject({ changed: true, unchanged: 8 });
    expect(result.shards).toEqual(first.shards);
  });
});

describe("configuration that conflicts with the dataset", () => {
  it("another bucket count is a ConfigError naming both values, and changes nothing", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out));
    const before = tree(out);
    await expect(writeSnapshot(S1, jsonlOptions(out, { buckets: 8 }))).rejects.toThrow(ConfigError);
    await expect(writeSnapshot(S1, jsonlOptions(out, { buckets: 8 }))).rejects.toThrow(/buckets=4.*buckets=8/);
    expect(tree(out)).toEqual(before);
    expect(leftovers(out)).toEqual([]);
  });

  it("an omitted bucket count keeps the stored one", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out));
    const { buckets: _, ...rest } = jsonlOptions(out);
    expect(await writeSnapshot(S1, rest)).toMatchObject({ changed: false });
  });

  it("another export format is a ConfigError", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out));
    await expect(writeSnapshot(S1, jsonlOptions(out, { format: rl }))).rejects.toThrow(/holds sft records, got format rl/);
  });

  it("another shard format rewrites every shard", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out));
    const result = await writeSnapshot(S1, jsonlOptions(out, { shardFormat: parquetFormat({ compression: "zstd" }) }));
    expect(result.changed).toBe(true);
    expect(readdirSync(join(out, "data")).every((f) => f.endsWith(".parquet"))).toBe(true);
  });

  it("a bad bucket count or extra file name is refused", async () => {
    const out = freshOut();
    await expect(writeSnapshot(S1, jsonlOptions(out, { buckets: 0 }))).rejects.toThrow(/got 0/);
    await expect(writeSnapshot(S1, jsonlOptions(out, { extraFiles: { "data": "x" } }))).rejects.toThrow(ConfigError);
    await expect(writeSnapshot(S1, jsonlOptions(out, { extraFiles: { "a/b": "x" } }))).rejects.toThrow(ConfigError);
    expect(tree(out)).toEqual({});
  });
});

describe("a duplicated key", () => {
  it("throws DuplicateKeyError naming the key and changes nothing", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out));
    const before = tree(out);
    await expect(writeSnapshot([...S1, rec("c", 5)], jsonlOptions(out))).rejects.toThrow(DuplicateKeyError);
    await expect(writeSnapshot([...S1, rec("c", 5)], jsonlOptions(out))).rejects.toThrow(/\["c"\]/);
    expect(tree(out)).toEqual(before);
    expect(leftovers(out)).toEqual([]);
  });
});

describe("a source that fails mid-snapshot", () => {
  it("changes nothing and leaves nothing behind", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out));
    const before = tree(out);
    async function* broken() {
      yield* S1.slice(0, 3);
      throw new Error("connection reset");
    }
    await expect(writeSnapshot(broken(), jsonlOptions(out))).rejects.toThrow(/connection reset/);
    expect(tree(out)).toEqual(before);
    expect(leftovers(out)).toEqual([]);
  });
});

describe("extra files", () => {
  it("are built from the result and published with the shards", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out, { extraFiles: (r) => ({ "manifest.json": JSON.stringify({ shards: r.shards.length }), "README.md": "card" }) }));
    expect(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"))).toEqual({ shards: readdirSync(join(out, "data")).length });
    expect(readFileSync(join(out, "README.md"), "utf8")).toBe("card");
  });
});

describe("two jobs at once", () => {
  it("one succeeds, the other throws LockedError and changes nothing", async () => {
    const out = freshOut();
    await writeSnapshot(S1, jsonlOptions(out));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow() {
      yield* S1.slice(0, 4);
      await gate;
      yield* S1.slice(4).map((r) => rec(JSON.parse(r.key)[0] as string, 3));
    }
    const first = writeSnapshot(slow(), jsonlOptions(out));
    await new Promise((r) => setTimeout(r, 50));
    const before = tree(out);
    await expect(writeSnapshot(snapshot({ z: 1 }), jsonlOptions(out))).rejects.toThrow(LockedError);
    expect(tree(out)).toEqual(before);
    release();
    expect(await first).toMatchObject({ replaced: 4, unchanged: 4 });
    expect(leftovers(out)).toEqual([]);
  });

  it("started together: exactly one wins", async () => {
    const out = freshOut();
    const results = await Promise.allSettled([writeSnapshot(S1, jsonlOptions(out)), writeSnapshot(snapshot({ z: 1 }), jsonlOptions(out))]);
    const rejected = results.filter((r) => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toBeInstanceOf(LockedError);
    const winner = results.findIndex((r) => r.status === "fulfilled");
    expect(jsonlRows(out)).toEqual((winner === 0 ? S1 : snapshot({ z: 1 })).map((r) => JSON.stringify(r.record)).sort());
  });
});

describe("Parquet shards", () => {
  it("hold the snapshot's rows in key order, and only changed buckets are rewritten", async () => {
    const out = freshOut();
    const options = jsonlOptions(out, { shardFormat: parquetFormat({ compression: "zstd" }) });
    await writeSnapshot(S1, options);
    const S2 = [...S1.slice(1).map((r) => (r.key === '["d"]' ? rec("d", 2) : r)), rec("z", 1)];
    const result = await writeSnapshot(S2, options);
    expect(result).toMatchObject({ added: 1, replaced: 1, removed: 1, unchanged: 6 });
    const fresh = freshOut();
    await writeSnapshot(S2, { ...options, outDir: fresh });
    expect(tree(out)).toEqual(tree(fresh));
    for (const shard of result.shards) {
      const { rows, columns } = await readParquetRows([join(out, shard.path)]);
      expect(columns.map((c) => c.name)).toEqual(COLUMNS.map((c) => c.name));
      const ids = rows.map((r) => r.id as string);
      expect(ids).toEqual([...ids].sort());
    }
    const all = await readParquetRows(result.shards.map((s) => join(out, s.path)));
    const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => (String(a.id) < String(b.id) ? -1 : 1);
    expect(all.rows.map((r) => ({ id: r.id, v: Number(r.v), text: r.text })).sort(byId)).toEqual(S2.map((r) => r.record).sort(byId));
  });
});
