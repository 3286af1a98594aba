import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMATS } from "../../src/formats/index.js";
import { datasetCard } from "../../src/output/dataset-card.js";
import { DatasetSink } from "../../src/dataset/dataset-sink.js";
import { s3Client } from "../../src/output/s3-client.js";
import { LOCK_PATH } from "../../src/output/object-lease-lock.js";
import { S3Storage } from "../../src/output/s3-storage.js";
import type { ShardInfo } from "../../src/output/shard-format.js";
import { ShardRotation } from "../../src/output/shard-rotation.js";
import { readText, writeText } from "../../src/output/write-text.js";
import { columnPlan } from "../../src/parquet/column-plan.js";
import { encodeRowGroup } from "../../src/parquet/encode-row-group.js";
import { RowGroupBuilder } from "../../src/parquet/row-group-builder.js";
import { shredRecord } from "../../src/parquet/shred-record.js";
import type { Field } from "../../src/schema/column-type.js";
import { jsonlFormat } from "../../src/sinks/jsonl-format.js";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { startS3rver, useS3rverEnvironment } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { tempDir } from "../helpers/temp-dir.js";
import { encodedLines } from "../helpers/encoded-lines.js";

const execFileAsync = promisify(execFile);

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3rver();
  useS3rverEnvironment(s3);
});
afterAll(() => s3?.stop());

const root = tempDir("evalshard-s3-sink-");
let counter = 0;
const COLUMNS: Field[] = [
  { name: "id", type: { kind: "int64" }, nullable: false },
  { name: "text", type: { kind: "string" }, nullable: true },
];
const READER = fileURLToPath(new URL("./read_s3_dataset.py", import.meta.url));

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
async function bytesOf(stream: AsyncIterable<Uint8Array> | null): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream!) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Writes `rows` records as Parquet row groups of 500 through the sink, rotated at `maxRows`. */
async function writeRowGroups(sink: DatasetSink, rows: number, maxRows: number, text: (id: number) => string): Promise<ShardInfo[]> {
  const plan = columnPlan(COLUMNS);
  const shards = sink.rowGroups(plan);
  const rotation = new ShardRotation({ maxRows, maxBytes: Infinity });
  for (let start = 0; start < rows; start += 500) {
    const builder = new RowGroupBuilder(plan);
    const end = Math.min(rows, start + 500);
    for (let id = start; id < end; id++) {
      builder.beginRow();
      shredRecord(plan, { id, text: text(id) }, builder.leaves);
    }
    let shard = 0;
    for (let id = start; id < end; id++) shard = rotation.place(1);
    await shards.append(shard, encodeRowGroup(builder, { codec: "zstd", zstdLevel: 1 }));
  }
  return shards.finish();
}

async function publish(sink: DatasetSink, shards: ShardInfo[], run: string): Promise<void> {
  const card = datasetCard({ format: FORMATS.sft, columns: COLUMNS, shards, base: sink.base });
  await sink.publish({ card, manifest: { run, base: sink.base, shards } });
}

describe("the dataset sink on S3", () => {
  it("fed row groups: a shard above the part size goes up in parts; evalshard, pyarrow and datasets read it back", async () => {
    const client = s3Client();
    const commands: string[] = [];
    client.middlewareStack.add((next, context) => (args) => (commands.push(context.commandName ?? ""), next(args)), { step: "initialize" });
    const prefix = `sink/rg-${counter++}`;
    const storage = new S3Storage(`s3://${s3.bucket}/${prefix}`, { client });
    const sink = await DatasetSink.open(storage);
    // Random text barely compresses: the first shard is ~12 MB, above the 8 MiB part size.
    const texts = Array.from({ length: 4000 }, () => randomBytes(3000).toString("base64"));
    const shards = await writeRowGroups(sink, 4000, 3000, (id) => texts[id]!);
    expect(shards.map((s) => [s.path, s.rows])).toEqual([
      ["data/train-00000-of-00002.parquet", 3000],
      ["data/train-00001-of-00002.parquet", 1000],
    ]);
    expect(shards[0]!.bytes).toBeGreaterThan(8 << 20);
    await publish(sink, shards, "one");

    // evalshard: list and read at the dataset's paths, every byte as the manifest says.
    expect((await storage.list("data/")).map((f) => [f.path, f.bytes]).sort()).toEqual(shards.map((s) => [s.path, s.bytes]));
    for (const shard of shards) expect(sha256(await bytesOf(await storage.read(shard.path)))).toBe(shard.sha256);
    const manifest = JSON.parse((await readText(storage, "manifest.json"))!) as { base: string };
    expect(manifest.base).toMatch(/^snapshots\/000001-/);
    expect(commands.filter((c) => c === "UploadPartCommand")).toHaveLength(2);
    expect(commands.filter((c) => c === "CompleteMultipartUploadCommand")).toHaveLength(1);

    // Python: with boto3 when the venv has it, else from files fetched by plain GETs of the card's data_files.
    const work = join(root, `py-${counter++}`);
    // boto3 fetches the card and the shards it names, as a user's training job would. Not spawnSync: the
    // server answering it runs on this thread.
    const args = [RUN_AND_EXIT, READER, work, s3.endpoint, s3.bucket, `${prefix}/`];
    const run = await execFileAsync(PYTHON, args, { encoding: "utf8", env: { ...process.env, HF_DATASETS_OFFLINE: "1", HF_HOME: join(root, "hf") } });
    expect(run.stderr.split("\n").filter((l) => /Error/.test(l))).toEqual([]);
    const seen = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { data_files: string[]; ids: number[]; datasets_rows: number };
    expect(seen.data_files).toEqual(shards.map((s) => `${manifest.base}${s.path}`));
    expect(seen.ids).toEqual(Array.from({ length: 4000 }, (_, i) => i));
    expect(seen.datasets_rows).toBe(4000);
  }, 120_000);

  it("fed encoded lines: JSONL shards named, rotated and hashed as locally", async () => {
    const storage = new S3Storage(`s3://${s3.bucket}/sink/rec-${counter++}`);
    const sink = await DatasetSink.open(storage);
    const writer = sink.lineSets(jsonlFormat({ compression: "none" }), COLUMNS);
    const rotation = new ShardRotation({ maxRows: 2, maxBytes: Infinity });
    for (let id = 0; id < 5; id++) await writer.append(0, rotation.place(1), encodedLines([{ id, text: `record ${id}` }]));
    const shards = await writer.finish();
    expect(shards.map((s) => s.path)).toEqual(["data/train-00000-of-00003.jsonl", "data/train-00001-of-00003.jsonl", "data/train-00002-of-00003.jsonl"]);
    await publish(sink, shards, "one");
    const lines = [];
    for (const shard of shards) {
      const bytes = await bytesOf(await storage.read(shard.path));
      expect(sha256(bytes)).toBe(shard.sha256);
      lines.push(...bytes.toString().trim().split("\n"));
    }
    expect(lines.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([0, 1, 2, 3, 4]);
    // The lock is released: the next job opens at once.
    await (await DatasetSink.open(storage)).abort();
  });
});

describe("a job killed at each publish step of the dataset sink on S3", () => {
  const STEPS = ["staged", "pointer", "root:README.md", "root:manifest.json", "cleaned", "pruned"];

  it.each(STEPS)("killed after %s: the previous snapshot stays readable, the next run recovers and publishes", async (killAt) => {
    const storage = new S3Storage(`s3://${s3.bucket}/sink/kill-${counter++}`);
    const first = await DatasetSink.open(storage);
    await publish(first, await writeRowGroups(first, 10, 5, (id) => `one ${id}`), "one");

    const killed = await DatasetSink.open(storage, {
      onStep: (step) => {
        if (step === killAt) throw new Error(`killed after ${step}`);
      },
    });
    const shards = await writeRowGroups(killed, 12, 5, (id) => `two ${id}`);
    await expect(publish(killed, shards, "two")).rejects.toThrow(`killed after ${killAt}`);
    // The process is gone: nothing more of it runs. Whatever the root manifest names is there and whole.
    const rootManifest = JSON.parse((await readText(storage.root, "manifest.json"))!) as { run: string; base: string; shards: ShardInfo[] };
    expect(rootManifest.run).toBe(STEPS.indexOf(killAt) >= STEPS.indexOf("root:manifest.json") ? "two" : "one");
    for (const shard of rootManifest.shards) expect(sha256(await bytesOf(await storage.root.read(`${rootManifest.base}${shard.path}`)))).toBe(shard.sha256);

    // Its lease runs out (it no longer renews): written here as a lease that expired.
    const lease = JSON.parse((await readText(storage.root, LOCK_PATH))!) as Record<string, unknown>;
    await writeText(storage.root, LOCK_PATH, JSON.stringify({ ...lease, expires: new Date(Date.now() - 1).toISOString() }));

    const next = await DatasetSink.open(storage);
    const recovered = JSON.parse((await readText(storage.root, "manifest.json"))!) as { run: string };
    expect(recovered.run).toBe(STEPS.indexOf(killAt) >= STEPS.indexOf("pointer") ? "two" : "one");
    await publish(next, await writeRowGroups(next, 3, 5, (id) => `three ${id}`), "three");
    const after = JSON.parse((await readText(storage, "manifest.json"))!) as { run: string; shards: ShardInfo[] };
    expect(after.run).toBe("three");
    expect((await storage.list("data/")).map((f) => f.path)).toEqual(after.shards.map((s) => s.path));
    const folders = await storage.root.folders("snapshots/");
    expect(folders).toEqual((await storage.current())!.history);
  }, 60_000);
});
