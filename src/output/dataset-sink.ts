import type { ColumnPlan } from "../parquet/column-plan.js";
import type { Field } from "../schema/column-type.js";
import type { ShardFormat } from "./shard-format.js";
import { QuarantineWriter } from "./quarantine-writer.js";
import { RowGroupShards } from "./row-group-shards.js";
import { lineShards } from "./line-shards.js";
import type { EncodedShards } from "./encoded-shards.js";
import { RowGroupShardSets } from "./row-group-shard-sets.js";
import { ShardFiles } from "./shard-files.js";
import type { ShardLimits } from "./shard-rotation.js";
import { ShardedWriter } from "./sharded-writer.js";
import { SplitShards } from "./split-shards.js";
import type { SettledInput } from "./settled-input.js";
import type { Lock, PublishHook, Staging, Storage } from "./storage.js";
import { abortLockedStaging, openLockedStaging, publishLockedStaging } from "./locked-staging.js";
import type { PublishDecision } from "./publish-guard.js";

/** Options of {@link DatasetSink.open}. */
export interface DatasetSinkOptions {
  /** Split name in shard file names. Default "train". */
  readonly split?: string;
  /** Test hook, passed to the storage's publish. */
  readonly onStep?: PublishHook;
}

/** What a dataset holds besides its shards, written at publish. */
export interface DatasetFiles {
  /** README.md: the dataset card. */
  readonly card: string;
  /** manifest.json, written last. */
  readonly manifest: object;
}

/**
 * One dataset being written, for both engines: takes the storage's lock, stages the shards (fed records
 * through {@link records}, or encoded row groups through {@link rowGroups}, with the same naming and
 * rotation), the quarantine, the card and the manifest, and publishes them together.
 */
export class DatasetSink {
  #done = false;

  private constructor(
    readonly storage: Storage,
    readonly staging: Staging,
    readonly split: string,
    readonly lock: Lock,
  ) {}

  /** Locks `storage` and opens a staging in it (finishing or discarding what a crashed run left). */
  static open(storage: Storage, options: DatasetSinkOptions = {}): Promise<DatasetSink> {
    return openLockedStaging(storage, options.onStep, async ({ lock, staging }) => new DatasetSink(storage, staging, options.split ?? "train", lock));
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

  /**
   * Shards fed one record at a time (the stages engine), rotated at `limits`. With splits (`--split`), each
   * row's origin names its split and every split has shards of its own.
   */
  records(format: ShardFormat, columns: readonly Field[], limits: ShardLimits, input?: Pick<SettledInput, "splits">): ShardedWriter | SplitShards {
    const writerOf = (split: string) => new ShardedWriter({ dir: this.staging, format, columns, split, ...limits });
    return input?.splits === undefined ? writerOf(this.split) : new SplitShards(input.splits, writerOf);
  }

  /** Parquet shards fed encoded row groups (the parallel engine); the caller rotates with `ShardRotation`. */
  rowGroups(plan: ColumnPlan, createdBy: string, split = this.split): RowGroupShards {
    return new RowGroupShards(new ShardFiles(this.staging, split, ".parquet"), plan, createdBy);
  }

  /** {@link rowGroups} of the run: one set, or with splits (`--split`) one per split, named after it. */
  rowGroupSets(plan: ColumnPlan, createdBy: string, input?: Pick<SettledInput, "splits">): RowGroupShardSets {
    return this.#sets((split) => this.rowGroups(plan, createdBy, split), input?.splits);
  }

  /** JSON Lines shards fed encoded lines (the parallel engine's `--to jsonl`): one set, or one per split. */
  lineSets(format: ShardFormat, columns: readonly Field[], input?: Pick<SettledInput, "splits">): RowGroupShardSets {
    return this.#sets((split) => lineShards(new ShardFiles(this.staging, split, format.extension), format, columns), input?.splits);
  }

  #sets(shardsOf: (split: string) => EncodedShards, splits: readonly string[] | undefined): RowGroupShardSets {
    if (splits === undefined) return new RowGroupShardSets([shardsOf(this.split)], null);
    return new RowGroupShardSets(splits.map(shardsOf), splits);
  }

  /** The quarantine of `format`'s bad lines: `_quarantine/<format>.ndjson`. */
  quarantine(format: string): QuarantineWriter {
    return new QuarantineWriter(this.staging, `_quarantine/${format}.ndjson`);
  }

  /**
   * Writes the card and the manifest, then publishes the dataset whole and releases the lock; or keeps it
   * under `_rejected/` when the publish guards refused the run. Returns where the files went.
   */
  async publish(files: DatasetFiles, decision?: Pick<PublishDecision, "published" | "rejected_to">): Promise<string> {
    const where = await publishLockedStaging(this, files, ["data", "_quarantine/"], decision);
    this.#done = true;
    return where;
  }

  /** Drops what was staged (the previous dataset stays) and releases the lock. */
  async abort(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await abortLockedStaging(this);
  }
}
