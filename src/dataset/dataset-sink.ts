import type { KeyedRows, RowOrigin, SettledInput } from "../engines/engine.js";
import { ConfigError } from "../core/errors.js";
import { redactJson } from "../core/secrets.js";
import { sealedManifestText } from "../output/manifest-seal.js";
import { pruneRejected, REJECTED_DIR } from "../output/publish-guard.js";
import type { PublishDecision } from "../output/publish-guard.js";
import { QuarantineWriter } from "../output/quarantine-writer.js";
import { ParquetShard } from "../output/parquet-shard.js";
import { lineShards } from "../output/line-shards.js";
import { EncodedShards } from "../output/encoded-shards.js";
import { RowGroupShardSets } from "../output/row-group-shard-sets.js";
import { ShardFiles } from "../output/shard-files.js";
import type { ShardFormat } from "../output/shard-format.js";
import type { Lock, PublishHook, Staging, Storage } from "../output/storage.js";
import { writeText } from "../output/write-text.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import type { Field } from "../schema/column-type.js";
import type { SplitRequest } from "../splits/split-assigner.js";
import { STATE_DIR } from "./ledger.js";
import type { DatasetState } from "./ledger.js";
import type { SnapshotRecord } from "./incoming.js";
import { StagedSnapshot } from "./staged-snapshot.js";
import type { SnapshotResult, SnapshotShape } from "./staged-snapshot.js";

/** Options of {@link DatasetSink.open}. */
export interface DatasetSinkOptions {
  /**
   * An incremental (nightly) dataset: its rows keyed by origin into a fixed number of hash buckets with a
   * ledger, rewriting only the buckets that changed (`StagedSnapshot`). Absent: convert's dataset,
   * whose shards rotate by size.
   */
  readonly buckets?: BucketLayout;
  /**
   * False: no `_quarantine/` is published, for rows judged before they reached the sink (a partitioned
   * night's commit, `writeSnapshot`'s records).
   */
  readonly quarantine?: false;
  /** Split name in size-rotated shard file names. Default "train". */
  readonly split?: string;
  /** Test hook, passed to the storage's publish. */
  readonly onStep?: PublishHook;
  /** Hears the first read's outcome, when the engine starts writing (keyed rows: once every row is in). */
  readonly onSettled?: (input: SettledInput) => void;
}

/** The buckets of an incremental dataset (`StagedSnapshot.open`). */
export interface BucketLayout {
  /** Fixed number of shards; default: the stored count, or 16 for a new dataset. */
  readonly count?: number | undefined;
  /** A split dataset (`--split`): each split has its buckets. */
  readonly split?: SplitRequest | undefined;
}

/** What a dataset publishes besides its shards and quarantine. */
export interface DatasetFiles {
  /** README.md: the dataset card. Absent only for `writeSnapshot`, whose caller may give its own in `extra`. */
  readonly card?: string;
  /** manifest.json, sealed, written last. Absent only for `writeSnapshot`, like the card. */
  readonly manifest?: object;
  /** Other small files by path (e.g. `_cache/scorecards.ndjson`); their top-level names are published. */
  readonly extra?: Readonly<Record<string, string>>;
  /** Buckets only: small files kept with the state (by name in `_state/`), made from the state being published. */
  readonly state?: (next: DatasetState) => Readonly<Record<string, string>>;
}

/**
 * One dataset being written, by convert or a night: takes the storage's lock, stages the shards, the
 * quarantine, the card and the manifest, and publishes them together (or keeps them under `_rejected/`). Its
 * shards either rotate by size (fed encoded row groups or lines a set per split) or, for a night, are fixed
 * hash buckets fed rows keyed by their `RowOrigin`, where `publish` drops a snapshot that changed nothing.
 */
export class DatasetSink {
  #night: SnapshotResult | null = null;
  #done = false;

  private constructor(
    readonly storage: Storage,
    readonly staging: Staging,
    readonly lock: Lock,
    /** null: shards rotated by size. */
    private readonly buckets: StagedSnapshot | null,
    private readonly options: DatasetSinkOptions,
  ) {}

  /** Locks `storage`, opens a staging in it (finishing or discarding what a crashed run left) and, for buckets, reads the current dataset. */
  static async open(storage: Storage, options: DatasetSinkOptions = {}): Promise<DatasetSink> {
    const lock = await storage.lock();
    let staging: Staging | undefined;
    try {
      staging = await storage.stage(options.onStep === undefined ? {} : { onStep: options.onStep });
      const { buckets } = options;
      const snapshot = buckets === undefined ? null : await StagedSnapshot.open(storage, staging, buckets.count, buckets.split);
      return new DatasetSink(storage, staging, lock, snapshot, options);
    } catch (error) {
      await staging?.abort();
      await lock.release();
      throw error;
    }
  }

  /** A local directory for the run's temporary files (spooled input). */
  get scratch(): string {
    return this.staging.scratch;
  }

  /**
   * Where the published shards will be relative to the dataset's root: "" locally, the snapshot folder
   * on object storage. Pass it to `datasetCard` as `base`.
   */
  get base(): string {
    return this.staging.base ?? "";
  }

  /** The number this snapshot publishes as, where the storage numbers its snapshots; else null. */
  get number(): number | null {
    return this.staging.number ?? null;
  }

  /** Buckets: the dataset's state as published before this run; null for a new dataset (and for size-rotated shards). */
  get current(): DatasetState | null {
    return this.buckets?.current ?? null;
  }

  /** Buckets: what the night did to the dataset; known once the engine finished its rows. */
  get night(): SnapshotResult {
    if (this.#night === null) throw new Error("Internal error: the snapshot is not built yet");
    return this.#night;
  }

  /** Parquet shards fed encoded row groups; the caller rotates with `ShardRotation`. */
  rowGroups(plan: ColumnPlan, split = this.#split): EncodedShards {
    return new EncodedShards(new ShardFiles(this.staging, split, ".parquet"), (file) => ParquetShard.open(file, plan));
  }

  /** {@link rowGroups} of the run: one set, or with splits (`--split`) one per split, named after it. */
  rowGroupSets(plan: ColumnPlan, input?: Pick<SettledInput, "splits">): RowGroupShardSets {
    return this.#sets((split) => this.rowGroups(plan, split), input?.splits);
  }

  /** JSON Lines shards fed encoded lines (`--to jsonl`): one set, or one per split. */
  lineSets(format: ShardFormat, columns: readonly Field[], input?: Pick<SettledInput, "splits">): RowGroupShardSets {
    return this.#sets((split) => lineShards(new ShardFiles(this.staging, split, format.extension), format, columns), input?.splits);
  }

  #sets(shardsOf: (split: string) => EncodedShards, splits: readonly string[] | undefined): RowGroupShardSets {
    if (this.buckets !== null) throw new Error("Internal error: shards rotated by size for a dataset of buckets");
    if (splits === undefined) return new RowGroupShardSets([shardsOf(this.#split)], null);
    return new RowGroupShardSets(splits.map(shardsOf), splits);
  }

  /**
   * Buckets: kept rows as the JSON lines the snapshot stores, keyed by origin.
   * @internal
   */
  keyedRows(format: ShardFormat, columns: readonly Field[]): KeyedRows {
    const buckets = this.#snapshot;
    return {
      add: (line, origin) => buckets.addLine({ key: rowKey(origin), version: origin.version, line, ...splitOf(origin) }),
      finish: async (input) => {
        this.options.onSettled?.(input);
        return (await this.build({ format: input.format, columns, shardFormat: format })).shards;
      },
      restart: () => buckets.restart(),
    };
  }

  /**
   * Buckets: a library caller's record (`writeSnapshot`), its key its own.
   * @internal
   */
  add(record: SnapshotRecord): Promise<void> {
    return this.#snapshot.add(record);
  }

  /**
   * Buckets: stages the shards whose records changed, the ledger and the state, once every row is in.
   * @internal
   */
  async build(shape: SnapshotShape): Promise<SnapshotResult> {
    this.#night = await this.#snapshot.build(shape);
    return this.#night;
  }

  get #snapshot(): StagedSnapshot {
    if (this.buckets === null) throw new Error("Internal error: keyed rows for a dataset of shards rotated by size");
    return this.buckets;
  }

  get #split(): string {
    return this.options.split ?? "train";
  }

  /** The quarantine of `format`'s bad lines: `_quarantine/<format>.ndjson`. */
  quarantine(format: string): QuarantineWriter {
    return new QuarantineWriter(this.staging, `_quarantine/${format}.ndjson`);
  }

  /**
   * Writes `files` and publishes the dataset whole, then releases the lock; or keeps it under
   * `decision.rejected_to` when the publish guards refused the run. Buckets that changed nothing publish
   * nothing: the staging is dropped. Returns where the files went.
   */
  async publish(files: DatasetFiles, decision?: Pick<PublishDecision, "published" | "rejected_to">): Promise<string> {
    if (this.buckets !== null && !this.night.changed) {
      await this.abort();
      return this.storage.location;
    }
    const names = new Set(["data/", ...(this.buckets === null ? [] : [STATE_DIR]), ...(this.options.quarantine === false ? [] : ["_quarantine/"])]);
    for (const [path, text] of Object.entries(files.extra ?? {})) {
      const top = path.split("/")[0] as string;
      checkExtraName(top);
      names.add(path.includes("/") ? `${top}/` : top);
      await writeText(this.staging, path, text);
    }
    if (files.state !== undefined) {
      const next = this.buckets?.next ?? null;
      if (next === null) throw new Error("Internal error: state files without a staged ledger");
      for (const [name, text] of Object.entries(files.state(next))) {
        if (!/^[\w.-]+$/.test(name) || name.startsWith(".")) throw new Error(`Internal error: a state file named ${JSON.stringify(name)}`);
        await writeText(this.staging, `${STATE_DIR}/${name}`, text);
      }
    }
    const last: [string, string][] = [];
    if (files.card !== undefined) last.push(["README.md", files.card]);
    if (files.manifest !== undefined) last.push(["manifest.json", sealedManifestText(redactJson(files.manifest))]);
    // Written together: the publish still moves the manifest last, and no reader sees either before it.
    const written = await Promise.allSettled(last.map(([path, text]) => writeText(this.staging, path, text)));
    for (const result of written) if (result.status === "rejected") throw result.reason;
    for (const [path] of last) names.add(path);
    let where = this.storage.location;
    if (decision === undefined || decision.published) await this.staging.publish([...names]);
    else {
      // A refused attempt is kept under `_rejected/<name>/`, and the oldest ones pruned.
      const name = decision.rejected_to?.slice(REJECTED_DIR.length + 1).replace(/\/$/, "") ?? "";
      if (name === "" || name.includes("/")) throw new Error(`Internal error: a refused attempt needs a ${REJECTED_DIR}/<name>/ folder, got ${JSON.stringify(decision.rejected_to)}`);
      where = await this.staging.reject([...names], name);
      await pruneRejected(this.storage);
    }
    this.#done = true;
    await this.lock.release();
    return where;
  }

  /** Drops what was staged (the previous dataset stays) and releases the lock. */
  async abort(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    try {
      await this.staging.abort();
    } finally {
      await this.lock.release();
    }
  }
}

/** A top-level name next to `data/` and the state; throws otherwise. */
export function checkExtraName(name: string): void {
  if (name === "data" || name === STATE_DIR || name.startsWith(".") || /[/\\]/.test(name) || name === "") {
    throw new ConfigError(`Cannot publish the extra file ${JSON.stringify(name)}: expected a top-level file name other than data and ${STATE_DIR}`);
  }
}

/**
 * The dataset's key of a row: its record's key, and for a view's rows their place among the record's
 * (zero-padded, so the keys sort in row order). A rescored run replaces its rows, and a row it no longer
 * has goes, since every night's snapshot is complete.
 */
function rowKey(origin: RowOrigin): string {
  return origin.row === undefined ? origin.key : `${origin.key}#${String(origin.row).padStart(5, "0")}`;
}

function splitOf(origin: RowOrigin): { split?: string } {
  return origin.split === undefined ? {} : { split: origin.split };
}
