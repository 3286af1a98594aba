import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeBucketShard } from "../../src/dataset/bucket-shard.js";
import { openStaging } from "../../src/output/local-staging.js";
import type { StagedEntry } from "../../src/dataset/incoming.js";
import { jsonlFormat } from "../../src/sinks/jsonl-format.js";
import { tempDir } from "../helpers/temp-dir.js";
import { COLUMNS } from "./snapshot-fixtures.js";

const root = tempDir("evalshard-bucket-shard-");
let counter = 0;
const freshDir = () => {
  const dir = join(root, `d-${counter++}`);
  mkdirSync(join(dir, "data"), { recursive: true });
  return dir;
};

/** A staged file of lines, and entries for them. */
function stage(dir: string, lines: string[]): StagedEntry[] {
  let offset = 0;
  const entries = lines.map((line) => {
    const entry = { bucket: 0, version: 1, sha256: "", offset, length: Buffer.byteLength(line) };
    offset += entry.length + 1;
    return entry;
  });
  writeFileSync(join(dir, "staged.ndjson"), lines.map((l) => `${l}\n`).join(""));
  return entries;
}

describe("writeBucketShard", () => {
  it("writes the rows in the order of the entries, whatever their order in the staged file", async () => {
    const dir = freshDir();
    const lines = ['{"id":"c"}', '{"id":"a"}', '{"id":"b"}', '{"id":"d"}'];
    const [c, a, b, d] = stage(dir, lines);
    const info = await writeBucketShard({
      dir,
      path: "data/train-00000-of-00001.jsonl",
      staged: join(dir, "staged.ndjson"),
      entries: [a!, b!, c!, d!],
      format: jsonlFormat({ compression: "none" }),
      columns: COLUMNS,
    });
    const text = readFileSync(join(dir, info.path), "utf8");
    // Each line has every column, in order (a Parquet row's shape): the absent ones are null.
    expect(text.split("\n").map((l) => (l === "" ? "" : (JSON.parse(l) as { id: string }).id))).toEqual(["a", "b", "c", "d", ""]);
    expect(Object.keys(JSON.parse(text.split("\n")[0] as string) as object)).toEqual(COLUMNS.map((f) => f.name));
    expect(info).toMatchObject({ rows: 4, bytes: Buffer.byteLength(text) });
    expect(readdirSync(join(dir, "data"))).toEqual(["train-00000-of-00001.jsonl"]);
  });

  it("leaves nothing under data/ when the staged file is short", async () => {
    const dir = freshDir();
    const entries = stage(dir, ['{"id":"a"}']);
    const bad = { ...entries[0]!, length: 500 };
    const run = writeBucketShard({ dir, path: "data/x.jsonl", staged: join(dir, "staged.ndjson"), entries: [bad], format: jsonlFormat({ compression: "none" }), columns: COLUMNS });
    await expect(run).rejects.toThrow(/shorter/);
    expect(readdirSync(join(dir, "data"))).toEqual([]);
  });
});

describe("staging.reuse", () => {
  it("hard-links the published shard into the staging directory", async () => {
    const out = freshDir();
    writeFileSync(join(out, "data/s.jsonl"), "rows\n");
    const staging = await openStaging(out);
    await staging.reuse("data/s.jsonl");
    expect(statSync(join(staging.dir, "data/s.jsonl")).ino).toBe(statSync(join(out, "data/s.jsonl")).ino);
    await staging.abort();
  });
});
