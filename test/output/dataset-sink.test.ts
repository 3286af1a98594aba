import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DatasetSink } from "../../src/dataset/dataset-sink.js";
import { FORMATS } from "../../src/formats/index.js";
import { LocalStorage } from "../../src/output/local-storage.js";
import { ShardRotation } from "../../src/output/shard-rotation.js";
import { columnPlan } from "../../src/parquet/column-plan.js";
import { encodeRowGroup } from "../../src/parquet/encode-row-group.js";
import { RowGroupBuilder } from "../../src/parquet/row-group-builder.js";
import { shredRecord } from "../../src/parquet/shred-record.js";
import type { Field } from "../../src/schema/column-type.js";
import { jsonlFormat } from "../../src/sinks/jsonl-format.js";
import { readParquetRows } from "../helpers/read-parquet.js";
import { visibleEntries } from "../helpers/local-layout.js";
import { tempDir } from "../helpers/temp-dir.js";
import { encodedLines } from "../helpers/encoded-lines.js";

const root = tempDir("evalshard-dataset-sink-");
let counter = 0;
const freshOut = () => join(root, `out-${counter++}`);
const COLUMNS: Field[] = [
  { name: "id", type: { kind: "int64" }, nullable: false },
  { name: "text", type: { kind: "string" }, nullable: true },
];
const RECORDS = Array.from({ length: 5 }, (_, id) => ({ id, text: `record ${id}` }));
const LIMITS = { maxRows: 2, maxBytes: Infinity };
const NAMES = ["train-00000-of-00003", "train-00001-of-00003", "train-00002-of-00003"];

describe("the dataset sink", () => {
  it("fed encoded lines: rotates, names, and publishes shards, card and manifest together", async () => {
    const out = freshOut();
    const sink = await DatasetSink.open(new LocalStorage(out));
    const writer = sink.lineSets(jsonlFormat({ compression: "none" }), COLUMNS);
    const rotation = new ShardRotation(LIMITS);
    for (const r of RECORDS) await writer.append(0, rotation.place(1), encodedLines([r]));
    const shards = await writer.finish();
    expect(shards.map((s) => s.path)).toEqual(NAMES.map((n) => `data/${n}.jsonl`));
    expect(existsSync(join(out, "data"))).toBe(false);
    await sink.publish({ card: "card\n", manifest: { shards } });
    expect(visibleEntries(out)).toEqual(["README.md", "_quarantine", "data", "manifest.json"]);
    expect(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"))).toEqual({ shards, manifest_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const lines = (ids: number[]) => ids.map((id) => `${JSON.stringify(RECORDS[id])}\n`).join("");
    expect(shards.map((s) => readFileSync(join(out, s.path), "utf8"))).toEqual([lines([0, 1]), lines([2, 3]), lines([4])]);
  });

  it("fed encoded row groups: the same names for the same rotation", async () => {
    const out = freshOut();
    const sink = await DatasetSink.open(new LocalStorage(out));
    const plan = columnPlan(COLUMNS);
    const shards = sink.rowGroups(plan);
    const rotation = new ShardRotation(LIMITS);
    for (const record of RECORDS) {
      const builder = new RowGroupBuilder(plan);
      builder.beginRow();
      shredRecord(plan, record, builder.leaves);
      await shards.append(rotation.place(1), encodeRowGroup(builder, { codec: "zstd", zstdLevel: 3 }));
    }
    const infos = await shards.finish();
    expect(infos.map((s) => s.path)).toEqual(NAMES.map((n) => `data/${n}.parquet`));
    await sink.publish({ card: "", manifest: {} });
    const { rows } = await readParquetRows(infos.map((s) => join(out, s.path)));
    expect(rows.map((r) => Number(r.id))).toEqual([0, 1, 2, 3, 4]);
  });

  it("keyed into buckets: publishes a night that changed the dataset with its ledger, and drops one that did not", async () => {
    const out = freshOut();
    const night = async (records: typeof RECORDS) => {
      const sink = await DatasetSink.open(new LocalStorage(out), { buckets: { count: 2 } });
      expect(() => sink.lineSets(jsonlFormat({ compression: "none" }), COLUMNS)).toThrow(/shards rotated by size for a dataset of buckets/);
      const rows = sink.keyedRows(jsonlFormat({ compression: "none" }), COLUMNS);
      for (const r of records) await rows.add(JSON.stringify(r), { key: `run-${r.id}`, version: 1 });
      const shards = await rows.finish({ format: FORMATS.sft, keys: records.length });
      await sink.publish({ card: "card\n", manifest: { shards }, state: (next) => ({ "note.txt": next.ledger_sha256 }) });
      return { night: sink.night, shards };
    };
    const first = await night(RECORDS);
    expect(first.night).toMatchObject({ added: 5, removed: 0, changed: true });
    expect(first.shards.map((s) => s.path)).toEqual(["data/train-00000-of-00002.jsonl", "data/train-00001-of-00002.jsonl"]);
    expect(visibleEntries(out)).toEqual(["README.md", "_quarantine", "_state", "data", "manifest.json"]);
    const manifest = readFileSync(join(out, "manifest.json"), "utf8");
    expect(readFileSync(join(out, "_state", "note.txt"), "utf8")).toMatch(/^[0-9a-f]{64}$/);
    const same = await night(RECORDS);
    expect(same.night).toMatchObject({ added: 0, unchanged: 5, changed: false });
    expect(readFileSync(join(out, "manifest.json"), "utf8")).toBe(manifest);
    expect((await night(RECORDS.slice(1))).night).toMatchObject({ removed: 1, changed: true });
    expect(readFileSync(join(out, "manifest.json"), "utf8")).not.toBe(manifest);
  });

  it("aborted, leaves the previous dataset and releases the lock", async () => {
    const out = freshOut();
    const first = await DatasetSink.open(new LocalStorage(out));
    await first.publish({ card: "one", manifest: { n: 1 } });
    const second = await DatasetSink.open(new LocalStorage(out));
    const quarantine = second.quarantine("sft");
    await quarantine.write({ kind: "quarantined", provenance: { source: "x", line: 1, offset: 0 }, reason: "invalid_json", detail: "d", raw: "{", rawLength: 1 });
    await quarantine.close();
    await second.abort();
    expect(readFileSync(join(out, "README.md"), "utf8")).toBe("one");
    expect(readdirSync(join(out, "_quarantine"))).toEqual([]);
    await (await DatasetSink.open(new LocalStorage(out))).abort();
  });
});
