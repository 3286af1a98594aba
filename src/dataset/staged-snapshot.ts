import { rm } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "../core/errors.js";
import { sha256Hex } from "../core/sha256-hex.js";
import type { FormatBasics } from "../formats/format.js";
import type { ShardFormat, ShardInfo } from "../output/shard-format.js";
import type { Staging, Storage } from "../output/storage.js";
import type { Field } from "../schema/column-type.js";
import { checkBuckets, compareKeys, DEFAULT_BUCKETS, setHash, shardPath } from "./bucket.js";
import { writeBucketShard } from "./bucket-shard.js";
import { shardIntact } from "./shard-intact.js";
import { IncomingBuckets } from "./incoming.js";
import type { SnapshotLine, SnapshotRecord, StagedEntry } from "./incoming.js";
import { LEDGER_VERSION, readDatasetState, readLedgerOf, writeLedger, writeState } from "./ledger.js";
import type { BucketState, DatasetState, LedgerEntry } from "./ledger.js";
import type { SplitRequest } from "../splits/split-assigner.js";

/** The records' spool in the staging's scratch: a file per bucket. */
const INCOMING = "_incoming";

/** What the shards of a snapshot are made as: a change to any of it makes every existing shard stale. */
export interface SnapshotShape {
  readonly format: Pick<FormatBasics, "name" | "version">;
  /** The (pruned) output columns. */
  readonly columns: readonly Field[];
  /** `parquetFormat(...)` or `jsonlFormat(...)`; the caller disposes it. */
  readonly shardFormat: ShardFormat;
}

/** What a snapshot did to the dataset. */
export interface SnapshotResult {
  readonly added: number;
  /** Keys kept whose record or version changed. */
  readonly replaced: number;
  readonly removed: number;
  readonly unchanged: number;
  /**
   * Buckets whose shard was written anew or deleted (emptied); the others were carried over unchanged. In a
   * split dataset, the split's index (in the asked order) times the bucket count, plus the bucket.
   */
  readonly bucketsRewritten: number[];
  /** Every shard of the dataset after the run, by bucket. */
  readonly shards: ShardInfo[];
  /** False when the snapshot equals the dataset: then nothing was written. */
  readonly changed: boolean;
}

/**
 * The next snapshot of an incremental dataset, staged: records are added one at a time (spooled to the
 * staging's scratch, one file per bucket, remembering per key only its bucket, version, hash and place),
 * then {@link build} writes into the staging only the shards whose set of records changed, the ledger and
 * the state. The caller publishes the staging, or aborts it when nothing changed.
 */
export class StagedSnapshot {
  private constructor(
    private readonly storage: Storage,
    private readonly staging: Staging,
    /** The published state; its ledger is read in {@link build}, so a night's pull does not hold it. */
    private readonly old: DatasetState | null,
    private incoming: IncomingBuckets,
    private readonly buckets: number,
    private readonly split: SplitRequest | undefined,
  ) {}

  /** `buckets` and `split` as `SnapshotOptions` (write-snapshot.ts) says: both stored in the state, and fixed. */
  static async open(storage: Storage, staging: Staging, buckets?: number, split?: SplitRequest): Promise<StagedSnapshot> {
    if (buckets !== undefined) checkBuckets(buckets);
    const old = await readDatasetState(storage);
    const count = buckets ?? old?.buckets ?? DEFAULT_BUCKETS;
    if (old !== null && old.buckets !== count) {
      throw new ConfigError(`The dataset was written with buckets=${old.buckets}, got buckets=${count}: keep ${old.buckets} or write into a new output directory`);
    }
    const incoming = await IncomingBuckets.create(join(staging.scratch, INCOMING), count, splitNames(split).length);
    return new StagedSnapshot(storage, staging, old, incoming, count, split);
  }

  #next: DatasetState | null = null;

  /** The state {@link build} staged, when the dataset changed; null before or when nothing changed. */
  get next(): DatasetState | null {
    return this.#next;
  }

  /** The dataset's state as published before this snapshot; null for a new dataset. */
  get current(): DatasetState | null {
    return this.old;
  }

  add(record: SnapshotRecord): Promise<void> {
    return this.incoming.add(record, this.#splitIndex(record));
  }

  addLine(line: SnapshotLine): Promise<void> {
    return this.incoming.addLine(line, this.#splitIndex(line));
  }

  /** The index of the record's split among the split names; 0 in a dataset without splits. */
  #splitIndex(record: Pick<SnapshotRecord, "key" | "split">): number {
    if (this.split === undefined) return 0;
    const splits = splitNames(this.split);
    const index = record.split === undefined ? -1 : splits.indexOf(record.split);
    if (index < 0) throw new TypeError(`Expected the record of ${record.key} to name its split, one of ${splits.join(", ")}, got ${JSON.stringify(record.split)}`);
    return index;
  }

  /** Forgets every record added so far (a read that starts over). */
  async restart(): Promise<void> {
    await rm(join(this.staging.scratch, INCOMING), { recursive: true, force: true });
    this.incoming = await IncomingBuckets.create(join(this.staging.scratch, INCOMING), this.buckets, splitNames(this.split).length);
  }

  /** Stages the new dataset; writes nothing there beyond the incoming files (in scratch) when nothing changed. */
  async build(shape: SnapshotShape): Promise<SnapshotResult> {
    const { storage, staging, incoming, buckets, split } = this;
    const old = this.old === null ? null : { state: this.old, ledger: await readLedgerOf(storage, this.old) };
    const config = configOf(shape, buckets, split);
    const splits = splitNames(split);
    // A slot is a split's bucket (see StagedEntry.bucket).
    const splitOfSlot = (slot: number) => (split === undefined ? undefined : splits[Math.floor(slot / buckets)]);
    if (old !== null) checkConfig(old.state, config);
    // A new format version, shard format or column list makes every existing shard stale.
    const stale = old !== null && JSON.stringify(configKey(old.state)) !== JSON.stringify(configKey(config));
    await incoming.finish();

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
      const path = shardPath(bucket % buckets, buckets, shape.shardFormat.extension, splitOfSlot(bucket));
      const before = oldShards.get(path);
      if (entries === undefined) {
        if (before !== undefined) rewritten.push(bucket);
        continue;
      }
      const hash = setHash(entries.map(([key, e]) => [key, e.sha256] as const));
      const reusable = !stale && before !== undefined && before.set_hash === hash && before.path === path && (await shardIntact(storage, published.get(path), before));
      plan.push({ bucket, path, setHash: hash, entries, reuse: reusable ? before : null });
      if (!reusable) rewritten.push(bucket);
    }
    const changed = old === null || stale || rewritten.length > 0 || counts.added + counts.replaced + counts.removed > 0;
    if (!changed) {
      const shards = old.state.shards.map(shardInfo);
      return { ...counts, bucketsRewritten: [], shards, changed: false };
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
          format: shape.shardFormat,
          columns: shape.columns,
        });
      }
      const splitName = splitOfSlot(step.bucket);
      const at = { bucket: step.bucket % buckets, path: info.path, rows: info.rows, bytes: info.bytes, sha256: info.sha256, set_hash: step.setHash };
      states.push(splitName === undefined ? at : { split: splitName, ...at });
    }
    await rm(join(staging.scratch, INCOMING), { recursive: true, force: true });

    const ledger = function* (): Generator<LedgerEntry> {
      for (const key of keys) {
        const { bucket, version, sha256 } = incoming.entries.get(key)!;
        const splitName = splitOfSlot(bucket);
        yield { key, ...(splitName === undefined ? {} : { split: splitName }), bucket: bucket % buckets, version, sha256 };
      }
    };
    const ledgerSha256 = await writeLedger(staging, ledger());
    const state: DatasetState = { ...config, rows: keys.length, ledger_sha256: ledgerSha256, shards: states };
    await writeState(staging, state);
    this.#next = state;

    const shards = states.map(shardInfo);
    return { ...counts, bucketsRewritten: rewritten, shards, changed: true };
  }
}

type Config = Pick<DatasetState, "ledger_version" | "format" | "shard_format" | "columns_sha256" | "buckets" | "split">;

function configOf(options: SnapshotShape, buckets: number, split: SplitRequest | undefined): Config {
  return {
    ledger_version: LEDGER_VERSION,
    format: { name: options.format.name, version: options.format.version },
    shard_format: { description: options.shardFormat.description, extension: options.shardFormat.extension },
    columns_sha256: sha256Hex(JSON.stringify(options.columns)),
    buckets,
    ...(split === undefined ? {} : { split: { fractions: split.fractions, by: split.by, seed: split.seed } }),
  };
}

/** The split names in the asked order; one "train" in a dataset without splits. */
function splitNames(split: SplitRequest | undefined): string[] {
  return split === undefined ? ["train"] : Object.keys(split.fractions);
}

/** A shard as manifests list it: a split dataset's shards say their split. */
function shardInfo({ split, path, rows, bytes, sha256 }: BucketState): ShardInfo {
  return split === undefined ? { path, rows, bytes, sha256 } : { path, rows, bytes, sha256, split };
}

function splitText(split: SplitRequest | undefined): string {
  return split === undefined ? "none" : `${Object.entries(split.fractions).map(([n, f]) => `${n}=${f}`).join(",")} by ${split.by} with seed ${JSON.stringify(split.seed)}`;
}

/** What decides whether an existing shard can be kept, apart from its records. */
function configKey(c: Config): unknown[] {
  return [c.format.version, c.shard_format.description, c.shard_format.extension, c.columns_sha256];
}

/** The stored settings a snapshot must keep; the bucket count was checked when it opened. */
function checkConfig(stored: DatasetState, config: Config): void {
  if (JSON.stringify(stored.split ?? null) !== JSON.stringify(config.split ?? null)) {
    throw new ConfigError(
      `The dataset was written with split ${splitText(stored.split)}, got split ${splitText(config.split)}: rows would move between splits; keep the split or write into a new output directory`,
    );
  }
  if (stored.format.name !== config.format.name) {
    throw new ConfigError(`The dataset holds ${stored.format.name} records, got format ${config.format.name}: write into a new output directory`);
  }
}


