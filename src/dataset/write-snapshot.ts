import { LocalStorage } from "../output/local-storage.js";
import type { PublishHook, Storage } from "../output/storage.js";
import type { SplitRequest } from "../splits/split-assigner.js";
import { checkExtraName, DatasetSink } from "./dataset-sink.js";
import type { SnapshotRecord } from "./incoming.js";
import type { SnapshotResult, SnapshotShape } from "./staged-snapshot.js";

export type { SnapshotResult } from "./staged-snapshot.js";

/** Files published next to `data/`, by top-level name; or a function building them from the result. */
export type ExtraFiles =
  | Readonly<Record<string, string>>
  | ((result: SnapshotResult) => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/** Options of {@link writeSnapshot}. */
export interface SnapshotOptions extends SnapshotShape {
  /** The dataset's local directory; or see `storage`. */
  readonly outDir: string;
  /** Where the dataset is, when not the local directory `outDir`. */
  readonly storage?: Storage;
  /**
   * Fixed number of shards, stored in the state. Default: the stored count, or 16 for a new dataset.
   * A count other than the stored one is a `ConfigError`.
   */
  readonly buckets?: number;
  /** Test hook, passed to the storage's publish. */
  readonly onStep?: PublishHook;
  /** Written and published only when the dataset changed, e.g. `manifest.json`, `README.md`. */
  readonly extraFiles?: ExtraFiles;
  /**
   * A split dataset (`--split`): every record names its split, and each split has `buckets` shards of its own
   * (`data/test-00003-of-00016.parquet`). Stored in the state: a night with another split (or none, against a
   * split dataset) is a {@link ConfigError}, since rows would move between splits.
   */
  readonly split?: SplitRequest;
}

/**
 * Makes the dataset in `outDir` equal to a complete snapshot, rewriting only the shards whose set of
 * records changed: a `DatasetSink` of buckets, whose shards, ledger and extra files are published together;
 * a crashed run is finished or discarded by the next. Throws `LockedError` while another job holds `outDir`.
 */
export async function writeSnapshot(
  records: AsyncIterable<SnapshotRecord> | Iterable<SnapshotRecord>,
  options: SnapshotOptions,
): Promise<SnapshotResult> {
  const storage = options.storage ?? new LocalStorage(options.outDir);
  const onStep = options.onStep === undefined ? {} : { onStep: options.onStep };
  const sink = await DatasetSink.open(storage, { buckets: { count: options.buckets, split: options.split }, quarantine: false, ...onStep });
  try {
    for await (const record of records) await sink.add(record);
    const result = await sink.build(options);
    if (!result.changed) return result;
    const extra = typeof options.extraFiles === "function" ? await options.extraFiles(result) : (options.extraFiles ?? {});
    for (const name of Object.keys(extra)) checkExtraName(name);
    await sink.publish({ extra });
    return result;
  } finally {
    await sink.abort();
  }
}
