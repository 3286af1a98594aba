import { ConfigError } from "../core/errors.js";
import type { Format } from "../formats/format.js";
import { LocalStorage } from "../output/local-storage.js";
import type { PublishHook, Staging, Storage } from "../output/storage.js";
import { writeText } from "../output/write-text.js";
import type { Field } from "../schema/column-type.js";
import type { ShardFormat } from "../output/shard-format.js";
import type { SnapshotRecord } from "./incoming.js";
import { STATE_DIR } from "./ledger.js";
import { StagedSnapshot } from "./staged-snapshot.js";
import type { SnapshotResult } from "./staged-snapshot.js";

export type { SnapshotResult } from "./staged-snapshot.js";
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

/**
 * Makes the dataset in `outDir` equal to a complete snapshot, rewriting only the shards whose set of
 * records changed. Shards, ledger and extra files are published together (see `openStaging`); a
 * crashed run is finished or discarded by the next. Throws `LockedError` while another job holds `outDir`.
 */
export async function writeSnapshot(
  records: AsyncIterable<SnapshotRecord> | Iterable<SnapshotRecord>,
  options: SnapshotOptions,
): Promise<SnapshotResult> {
  const storage = options.storage ?? new LocalStorage(options.outDir);
  const lock = options.locked === true ? null : await storage.lock();
  try {
    const staging = await storage.stage(options.onStep === undefined ? {} : { onStep: options.onStep });
    try {
      const snapshot = await StagedSnapshot.open(storage, staging, options.buckets, options.split);
      for await (const record of records) await snapshot.add(record);
      const result = await snapshot.build(options);
      if (result.changed) await staging.publish(["data/", STATE_DIR, ...(await stageExtras(result, options, staging))]);
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

/** Writes the caller's extra files into the staging and returns their top-level names. */
async function stageExtras(result: SnapshotResult, options: SnapshotOptions, staging: Staging): Promise<string[]> {
  const extra = typeof options.extraFiles === "function" ? await options.extraFiles(result) : (options.extraFiles ?? {});
  for (const [name, text] of Object.entries(extra)) {
    checkExtraName(name);
    await writeText(staging, name, text);
  }
  const staged = (await options.stageExtras?.(result, staging)) ?? [];
  for (const name of staged) checkExtraName(name.replace(/\/$/, ""));
  return [...Object.keys(extra), ...staged];
}

/** A top-level name next to `data/` and the state; throws otherwise. */
export function checkExtraName(name: string): void {
  if (name === "data" || name === STATE_DIR || name.startsWith(".") || /[/\\]/.test(name) || name === "") {
    throw new ConfigError(`Cannot publish the extra file ${JSON.stringify(name)}: expected a top-level file name other than data and ${STATE_DIR}`);
  }
}
