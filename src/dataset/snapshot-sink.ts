import type { KeyedRows, KeyedSink, RecordShards, RecordSink, RowOrigin, SettledInput } from "../engines/engine.js";
import { abortLockedStaging, openLockedStaging, publishLockedStaging } from "../output/locked-staging.js";
import type { PublishDecision } from "../output/publish-guard.js";
import { QuarantineWriter } from "../output/quarantine-writer.js";
import type { ShardFormat, ShardInfo } from "../output/shard-format.js";
import type { Lock, PublishHook, Staging, Storage } from "../output/storage.js";
import { writeText } from "../output/write-text.js";
import type { Field } from "../schema/column-type.js";
import type { SplitRequest } from "../splits/split-assigner.js";
import { STATE_DIR } from "./ledger.js";
import type { DatasetState } from "./ledger.js";
import { StagedSnapshot } from "./staged-snapshot.js";
import type { SnapshotResult } from "./staged-snapshot.js";
import { checkExtraName } from "./write-snapshot.js";

/** Options of {@link SnapshotSink.open}. */
export interface SnapshotSinkOptions {
  /** Fixed number of shards; see {@link StagedSnapshot.open}. */
  readonly buckets?: number;
  /** A split dataset (`--split`): each split has its buckets; see {@link StagedSnapshot.open}. */
  readonly split?: SplitRequest;
  /** Test hook, passed to the storage's publish. */
  readonly onStep?: PublishHook;
  /** Hears the first read's outcome, when the engine starts writing. */
  readonly onSettled?: (input: SettledInput) => void;
}

/** What an incremental dataset publishes next to `data/` and its state, when it changed. */
export interface SnapshotFiles {
  /** README.md: the dataset card. */
  readonly card: string;
  /** manifest.json, written last. */
  readonly manifest: object;
  /** Other small files by path (e.g. `_cache/scorecards.ndjson`); their top-level names are published. */
  readonly extra?: Readonly<Record<string, string>>;
  /** Small files kept with the state (by name in `_state/`), made from the state being published. */
  readonly state?: (next: DatasetState) => Readonly<Record<string, string>>;
}

/**
 * An incremental (nightly) dataset as an engine's record sink: the engine's kept rows, keyed by their
 * {@link RowOrigin}, become the next complete snapshot ({@link StagedSnapshot}); `finish` rewrites only
 * the buckets that changed; {@link publish} commits it, or drops it when the dataset is unchanged. Holds
 * the storage's lock from {@link open} to publish or abort.
 */
export class SnapshotSink implements RecordSink, KeyedSink {
  #night: SnapshotResult | null = null;
  #done = false;

  private constructor(
    readonly storage: Storage,
    readonly staging: Staging,
    private readonly snapshot: StagedSnapshot,
    readonly lock: Lock,
    private readonly options: SnapshotSinkOptions,
  ) {}

  /** Locks `storage`, opens a staging in it (after recovering a crashed run) and reads the current dataset. */
  static open(storage: Storage, options: SnapshotSinkOptions = {}): Promise<SnapshotSink> {
    return openLockedStaging(storage, options.onStep, async ({ lock, staging }) => {
      const snapshot = await StagedSnapshot.open(storage, staging, options.buckets, options.split);
      return new SnapshotSink(storage, staging, snapshot, lock, options);
    });
  }

  get scratch(): string {
    return this.staging.scratch;
  }

  /** Where the published shards are relative to the dataset's root ("" locally, the snapshot folder on S3). */
  get base(): string {
    return this.staging.base ?? "";
  }

  /** The number this snapshot publishes as, where the storage numbers its snapshots; else null. */
  get number(): number | null {
    return this.staging.number ?? null;
  }

  /** The dataset's state as published before this night; null for a new dataset. */
  get current(): DatasetState | null {
    return this.snapshot.current;
  }

  /** What the night did to the dataset; known once the engine finished the records. */
  get night(): SnapshotResult {
    if (this.#night === null) throw new Error("Internal error: the snapshot is not built yet");
    return this.#night;
  }

  /** Rows keyed by origin; the shard size limits do not apply (the buckets are fixed). */
  records(format: ShardFormat, columns: readonly Field[], _limits: unknown, input: SettledInput): RecordShards {
    this.options.onSettled?.(input);
    return {
      write: (record, _inputBytes, origin) => this.snapshot.add({ key: rowKey(origin), version: origin.version, record, ...(origin.split === undefined ? {} : { split: origin.split }) }),
      finish: () => this.#build(input, format, columns),
      abort: () => Promise.resolve(),
    };
  }

  /** The unit engine's rows, as JSON lines keyed by origin: the same staged snapshot as {@link records}. */
  keyedRows(format: ShardFormat, columns: readonly Field[]): KeyedRows {
    return {
      add: (line, origin) => this.snapshot.addLine({ key: rowKey(origin), version: origin.version, line, ...(origin.split === undefined ? {} : { split: origin.split }) }),
      finish: (input) => {
        this.options.onSettled?.(input);
        return this.#build(input, format, columns);
      },
      restart: () => this.snapshot.restart(),
    };
  }

  async #build(input: SettledInput, format: ShardFormat, columns: readonly Field[]): Promise<ShardInfo[]> {
    this.#night = await this.snapshot.build({ format: input.format, columns, shardFormat: format });
    return this.#night.shards;
  }

  quarantine(format: string): QuarantineWriter {
    return new QuarantineWriter(this.staging, `_quarantine/${format}.ndjson`);
  }

  /**
   * Publishes the staged snapshot with `files` when the dataset changed, else drops it; releases the lock.
   * When the publish guards refused the night, the staged snapshot goes under `decision.rejected_to` instead.
   */
  async publish(files: SnapshotFiles, decision?: Pick<PublishDecision, "published" | "rejected_to">): Promise<void> {
    if (!this.night.changed) return this.abort();
    const extra = files.extra ?? {};
    const names = new Set(["_quarantine/"]);
    for (const [path, text] of Object.entries(extra)) {
      const top = path.split("/")[0] as string;
      checkExtraName(top);
      names.add(path.includes("/") ? `${top}/` : top);
      await writeText(this.staging, path, text);
    }
    const next = this.snapshot.next;
    if (next === null) throw new Error("Internal error: a changed snapshot without a staged state");
    for (const [name, text] of Object.entries(files.state?.(next) ?? {})) {
      if (!/^[\w.-]+$/.test(name) || name.startsWith(".")) throw new Error(`Internal error: a state file named ${JSON.stringify(name)}`);
      await writeText(this.staging, `${STATE_DIR}/${name}`, text);
    }
    await publishLockedStaging(this, files, ["data/", STATE_DIR, ...names], decision);
    this.#done = true;
  }

  /** Drops what was staged (the previous dataset stays) and releases the lock. */
  async abort(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await abortLockedStaging(this);
  }
}

/**
 * The dataset's key of a row: its record's key, and for a view's rows their place among the record's
 * (zero-padded, so the keys sort in row order). A rescored run replaces its rows, and a row it no longer
 * has goes, since every night's snapshot is complete.
 */
export function rowKey(origin: RowOrigin): string {
  return origin.row === undefined ? origin.key : `${origin.key}#${String(origin.row).padStart(5, "0")}`;
}
