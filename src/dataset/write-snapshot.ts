import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "../core/errors.js";
import type { Format } from "../formats/format.js";
import { LocalStorage } from "../output/local-storage.js";
import type { PublishHook, Staging, Storage, StoredFile } from "../output/storage.js";
import { writeText } from "../output/write-text.js";
import type { Field } from "../schema/column-type.js";
import type { ShardFormat, ShardInfo } from "../output/shard-format.js";
import { checkBuckets, compareKeys, DEFAULT_BUCKETS, setHash, shardPath } from "./bucket.js";
import { writeBucketShard } from "./bucket-shard.js";
import { IncomingBuckets } from "./incoming.js";
import type { SnapshotRecord, StagedEntry } from "./incoming.js";
import { LEDGER_VERSION, readDataset, STATE_DIR, writeLedger, writeState } from "./ledger.js";
import type { BucketState, DatasetState, LedgerEntry } from "./ledger.js";
import type { SplitRequest } from "../splits/split-assigner.js";

/** Files published next to `data/`, by top-level name; or a function building them from the result. */
export type ExtraFiles =
  | Readonly<Record<string, string>>
  | ((result: SnapshotResult) => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/** Options of {@link writeSnapshot}. */
export interface SnapshotOptions {
  /** The dataset's local directory; or see `storage`. */
  readonly outDir: string;
  /** Where the dataset is, when not the local directory `outDir`. */
  readonly storage?: Storage;
  readonly format: Format;
  /** The (pruned) output columns. */
  readonly columns: readonly Field[];
  /** `parquetFormat(...)` or `jsonlFormat(...)`; the caller disposes it. */
  readonly shardFormat: ShardFormat;
  /**
   * Fixed number of shards, stored in the state. Default: the stored count, or 16 for a new dataset.
   * A count other than the stored one is a {@link ConfigError}.
   */
  readonly buckets?: number;
  /** Test hook, passed to the storage's publish. */
  readonly onStep?: PublishHook;
  /** Written and published only when the dataset changed, e.g. `manifest.json`, `README.md`. */
  readonly extraFiles?: ExtraFiles;
  /**
   * Like `extraFiles`, for entries written as files or folders (e.g. `_quarantine/`): writes them into the
   * staging and returns their top-level names (a folder's with a trailing "/"). Called only when the dataset changed.
   */
  readonly stageExtras?: (result: SnapshotResult, staging: Staging) => Promise<readonly string[]>;
  /** The caller already holds the storage's lock, taken before its own work began. */
  readonly locked?: boolean;
  /**
   * A split dataset (`--split`): every record names its split, and each split has `buckets` shards of its own
   * (`data/test-00003-of-00016.parquet`). Stored in the state: a night with another split (or none, against a
   * split dataset) is a {@link ConfigError}, since rows would move between splits.
   */
  readonly split?: SplitRequest;
}

/** What {@link writeSnapshot} did. */
export interface SnapshotResult {
  readonly added: number;
  /** Keys kept whose record or version changed. */
  readonly replaced: number;
  readonly removed: number;
  readonly unchanged: number;
  /**
   * Buckets whose shard was written anew or deleted (emptied); the others were hard-linked. In a split
   * dataset, the split's index (in the asked order) times the bucket count, plus the bucket.
   */
  readonly bucketsRewritten: number[];
  /** Every shard of the dataset after the run, by bucket. */
  readonly shards: ShardInfo[];
  /** False when the snapshot equals the dataset: then nothing was written. */
  readonly changed: boolean;
}

/**
 * Makes the dataset in `outDir` equal to a complete snapshot, rewriting only the shards whose set of
 * records changed. Shards, ledger and extra files are published together (see `openStaging`); a
 * crashed run is finished or discarded by the next. Throws `LockedError` while another job holds `outDir`.
 */
export async function writeSnapshot(
  records: AsyncIterable<SnapshotRecord> | Iterable<SnapshotRecord>,
  options: SnapshotOptions,
): Promise<SnapshotResult> {
  if (options.buckets !== undefined) checkBuckets(options.buckets);
  const storage = options.storage ?? new LocalStorage(options.outDir);
  const lock = options.locked === true ? null : await storage.lock();
  try {
    const staging = await storage.stage(options.onStep === undefined ? {} : { onStep: options.onStep });
    try {
      const { result, extraNames } = await build(records, options, storage, staging);
      if (result.changed) await staging.publish(["data/", STATE_DIR, ...extraNames]);
      else await staging.abort();
      return result;
    } catch (error) {
      await staging.abort();
      throw error;
    }
  } finally {
    await lock?.release();
  }
}

/** Stages the new dataset; writes nothing there beyond the incoming files (in scratch) when nothing changed. */
async function build(
  records: AsyncIterable<SnapshotRecord> | Iterable<SnapshotRecord>,
  options: SnapshotOptions,
  storage: Storage,
  staging: Staging,
): Promise<{ result: SnapshotResult; extraNames: string[] }> {
  const old = await readDataset(storage);
  const buckets = options.buckets ?? old?.state.buckets ?? DEFAULT_BUCKETS;
  const config = configOf(options, buckets);
  if (old !== null) checkConfig(old.state, config);
  // A new format version, shard format or column list makes every existing shard stale.
  const stale = old !== null && JSON.stringify(configKey(old.state)) !== JSON.stringify(configKey(config));

  // Staged rows are local scratch: read back at random to write each bucket's shard in key order.
  const splits = options.split === undefined ? ["train"] : Object.keys(options.split.fractions);
  const incoming = await IncomingBuckets.create(join(staging.scratch, "_incoming"), buckets, splits.length);
  for await (const record of records) await incoming.add(record, splitIndex(splits, record, options.split !== undefined));
  await incoming.finish();
  // A slot is a split's bucket (see StagedEntry.bucket).
  const splitOfSlot = (slot: number) => (options.split === undefined ? undefined : splits[Math.floor(slot / buckets)]);

  const keys = [...incoming.entries.keys()].sort(compareKeys);
  const byBucket = new Map<number, [string, StagedEntry][]>();
  const counts = { added: 0, replaced: 0, removed: 0, unchanged: 0 };
  for (const key of keys) {
    const entry = incoming.entries.get(key)!;
    let list = byBucket.get(entry.bucket);
    if (list === undefined) byBucket.set(entry.bucket, (list = []));
    list.push([key, entry]);
    const before = old?.ledger.get(key);
    if (before === undefined) counts.added++;
    else if (before.sha256 !== entry.sha256 || before.version !== entry.version) counts.replaced++;
    else counts.unchanged++;
  }
  counts.removed = (old?.ledger.size ?? 0) - counts.replaced - counts.unchanged;

  // By path: a bucket number alone does not say which split's it is.
  const oldShards = new Map((old?.state.shards ?? []).map((s) => [s.path, s]));
  const published = new Map(old === null ? [] : (await storage.list("data/")).map((f) => [f.path, f]));
  const plan: { bucket: number; path: string; setHash: string; entries: [string, StagedEntry][]; reuse: BucketState | null }[] = [];
  const rewritten: number[] = [];
  for (let bucket = 0; bucket < buckets * splits.length; bucket++) {
    const entries = byBucket.get(bucket);
    const path = shardPath(bucket % buckets, buckets, options.shardFormat.extension, splitOfSlot(bucket));
    const before = oldShards.get(path);
    if (entries === undefined) {
      if (before !== undefined) rewritten.push(bucket);
      continue;
    }
    const hash = setHash(entries.map(([key, e]) => [key, e.sha256] as const));
    const reusable = !stale && before !== undefined && before.set_hash === hash && before.path === path && intact(published.get(path), before);
    plan.push({ bucket, path, setHash: hash, entries, reuse: reusable ? before : null });
    if (!reusable) rewritten.push(bucket);
  }
  const changed = old === null || stale || rewritten.length > 0 || counts.added + counts.replaced + counts.removed > 0;
  if (!changed) {
    const shards = old.state.shards.map(shardInfo);
    return { result: { ...counts, bucketsRewritten: [], shards, changed: false }, extraNames: [] };
  }

  const states: BucketState[] = [];
  for (const step of plan) {
    let info: ShardInfo;
    if (step.reuse !== null) {
      await staging.reuse(step.path);
      info = step.reuse;
    } else {
      info = await writeBucketShard({
        dir: staging,
        path: step.path,
        staged: incoming.file(step.bucket),
        entries: step.entries.map(([, e]) => e),
        format: options.shardFormat,
        columns: options.columns,
      });
    }
    const split = splitOfSlot(step.bucket);
    const at = { bucket: step.bucket % buckets, path: info.path, rows: info.rows, bytes: info.bytes, sha256: info.sha256, set_hash: step.setHash };
    states.push(split === undefined ? at : { split, ...at });
  }
  await rm(join(staging.scratch, "_incoming"), { recursive: true, force: true });

  const ledger = function* (): Generator<LedgerEntry> {
    for (const key of keys) {
      const { bucket, version, sha256 } = incoming.entries.get(key)!;
      const split = splitOfSlot(bucket);
      yield { key, ...(split === undefined ? {} : { split }), bucket: bucket % buckets, version, sha256 };
    }
  };
  const ledgerSha256 = await writeLedger(staging, ledger());
  const state: DatasetState = { ...config, rows: keys.length, ledger_sha256: ledgerSha256, shards: states };
  await writeState(staging, state);

  const shards = states.map(shardInfo);
  const result: SnapshotResult = { ...counts, bucketsRewritten: rewritten, shards, changed: true };
  const extra = typeof options.extraFiles === "function" ? await options.extraFiles(result) : (options.extraFiles ?? {});
  for (const [name, text] of Object.entries(extra)) {
    checkExtraName(name);
    await writeText(staging, name, text);
  }
  const staged = (await options.stageExtras?.(result, staging)) ?? [];
  for (const name of staged) checkExtraName(name.replace(/\/$/, ""));
  return { result, extraNames: [...Object.keys(extra), ...staged] };
}

type Config = Pick<DatasetState, "ledger_version" | "format" | "shard_format" | "columns_sha256" | "buckets" | "split">;

function configOf(options: SnapshotOptions, buckets: number): Config {
  return {
    ledger_version: LEDGER_VERSION,
    format: { name: options.format.name, version: options.format.version },
    shard_format: { description: options.shardFormat.description, extension: options.shardFormat.extension },
    columns_sha256: createHash("sha256").update(JSON.stringify(options.columns)).digest("hex"),
    buckets,
    ...(options.split === undefined ? {} : { split: { fractions: options.split.fractions, by: options.split.by, seed: options.split.seed } }),
  };
}

/** A shard as manifests list it: a split dataset's shards say their split. */
function shardInfo({ split, path, rows, bytes, sha256 }: BucketState): ShardInfo {
  return split === undefined ? { path, rows, bytes, sha256 } : { path, rows, bytes, sha256, split };
}

/** The index of the record's split among `splits`; 0 in a dataset without splits. */
function splitIndex(splits: readonly string[], record: SnapshotRecord, split: boolean): number {
  if (!split) return 0;
  const index = record.split === undefined ? -1 : splits.indexOf(record.split);
  if (index < 0) throw new TypeError(`Expected the record of ${record.key} to name its split, one of ${splits.join(", ")}, got ${JSON.stringify(record.split)}`);
  return index;
}

/** What decides whether an existing shard can be kept, apart from its records. */
function configKey(c: Config): unknown[] {
  return [c.format.version, c.shard_format.description, c.shard_format.extension, c.columns_sha256];
}

function checkConfig(stored: DatasetState, config: Config): void {
  if (stored.buckets !== config.buckets) {
    throw new ConfigError(
      `The dataset was written with buckets=${stored.buckets}, got buckets=${config.buckets}: keep ${stored.buckets} or write into a new output directory`,
    );
  }
  if (JSON.stringify(stored.split ?? null) !== JSON.stringify(config.split ?? null)) {
    throw new ConfigError(
      `The dataset was written with split ${splitText(stored.split)}, got split ${splitText(config.split)}: rows would move between splits; keep the split or write into a new output directory`,
    );
  }
  if (stored.format.name !== config.format.name) {
    throw new ConfigError(`The dataset holds ${stored.format.name} records, got format ${config.format.name}: write into a new output directory`);
  }
}

function splitText(split: SplitRequest | undefined): string {
  return split === undefined ? "none" : `${Object.entries(split.fractions).map(([n, f]) => `${n}=${f}`).join(",")} by ${split.by} with seed ${JSON.stringify(split.seed)}`;
}

/** Whether the published shard is there with the size the state gives it (a cheap check against tampering). */
function intact(file: StoredFile | undefined, shard: BucketState): boolean {
  return file !== undefined && file.bytes === shard.bytes;
}

function checkExtraName(name: string): void {
  if (name === "data" || name === STATE_DIR || name.startsWith(".") || /[/\\]/.test(name) || name === "") {
    throw new ConfigError(`Cannot publish the extra file ${JSON.stringify(name)}: expected a top-level file name other than data and ${STATE_DIR}`);
  }
}
