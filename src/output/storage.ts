/**
 * Where datasets go: a byte-sink interface with the local filesystem as its first implementation
 * ({@link LocalStorage}). Paths are relative, "/"-separated and never leave the storage's root. Adding a
 * storage (S3, a snapshot layout) is one class implementing these three interfaces.
 */

/** What a finished file holds, as the manifest records it. */
export interface WrittenFile {
  readonly bytes: number;
  readonly sha256: string;
}

/** A file being written, front to back. It is complete under its name only once {@link close} resolved. */
export interface FileWriter {
  /** Where the file goes, for messages. */
  readonly name: string;
  /**
   * Appends `bytes`, hashing them on the way. Resolves once the storage is done with them, so the caller
   * may reuse the buffer then; the bytes are not copied meanwhile.
   */
  write(bytes: Uint8Array): Promise<void>;
  /** Bytes written so far. */
  readonly bytes: number;
  /**
   * Makes the file complete and durable, and tells its size and sha256. A staging's file may become durable
   * later, but always before its {@link Staging.publish} makes it visible.
   */
  close(): Promise<WrittenFile>;
  /** Gives up: removes whatever was written. */
  abort(): Promise<void>;
}

/** One stored file, as {@link Files.list} finds it. */
export interface StoredFile {
  readonly path: string;
  readonly bytes: number;
}

/** Files under one root: a published dataset, a run's staging area, or (for tools and tests) a plain directory. */
export interface Files {
  /** The root, for messages: a directory, later `s3://bucket/prefix`. */
  readonly location: string;
  /** Starts a file at `path`, replacing any file there once closed. */
  create(path: string): Promise<FileWriter>;
  /** The file's bytes, streamed; null when there is no such file. */
  read(path: string): Promise<AsyncIterable<Uint8Array> | null>;
  /** Every file whose path starts with `prefix` (e.g. "data/"), in no particular order. */
  list(prefix: string): Promise<StoredFile[]>;
  /** Renames a finished file (a shard's hidden name to its published one). */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file, or everything under `path/`; nothing there is no error. */
  remove(path: string): Promise<void>;
}

/** A test hook: called after each step of a publish; throwing from it simulates a crash there. */
export type PublishHook = (step: string) => void | Promise<void>;

/**
 * A run's private version of the dataset, invisible to readers until {@link publish}. Written like any
 * {@link Files}; a crash before publish leaves the previous dataset as it was, and the next
 * {@link Storage.stage} cleans up or finishes what this run left.
 */
export interface Staging extends Files {
  /**
   * A local directory for the run's temporary files (spooled input, staged rows, DuckDB's input), removed
   * with the staging. Never published.
   */
  readonly scratch: string;
  /**
   * Where this staging's files are found, relative to the dataset's root, once published: "" (or absent)
   * where publish moves them into place (a local directory); `snapshots/<id>/` on object storage, where
   * a published version stays in its own folder. A dataset card names its shards under it.
   */
  readonly base?: string;
  /** The snapshot number this staging publishes as, where the storage keeps numbered snapshots (S3, a nightly local dataset). */
  readonly number?: number;
  /** Carries the published file `path` into this version unchanged, without rewriting its bytes. */
  reuse(path: string): Promise<void>;
  /**
   * The commit: replaces the listed top-level entries of the dataset (e.g. "data", "manifest.json") with
   * the staged ones, all at once for readers as far as the storage allows; a listed entry the staging lacks
   * is removed. `manifest.json` goes last. A name ending in "/" is a folder, kept even when empty where
   * the storage has folders.
   */
  publish(entries: readonly string[]): Promise<void>;
  /**
   * Instead of {@link publish}: keeps the listed entries of this staging under `_rejected/<name>/` for
   * inspection, drops the rest, and leaves the dataset as it was. Returns where they went, for messages.
   */
  reject(entries: readonly string[], name: string): Promise<string>;
  /** Drops the staging; after a publish that failed half-way, finishes it instead. */
  abort(): Promise<void>;
}

/** The single-writer lock of a dataset; release it when the job ends. */
export interface Lock {
  release(): Promise<void>;
  /**
   * Confirms this job still holds the lock (renewing it); throws `FencedError` once another job took it
   * over. A storage calls it right before its switch and before each delete. Absent where no other job can
   * take the lock over (standard output).
   */
  check?(): Promise<void>;
}

/** A staging's check that its job still holds the lock ({@link Lock.check}); resolves when it does. */
export type Fence = () => Promise<void>;

/** A dataset's home. */
export interface Storage extends Files {
  /** Takes the single-writer lock; throws `LockedError` while another live job holds it. */
  lock(): Promise<Lock>;
  /**
   * Opens a fresh staging area, after finishing or discarding what crashed runs left. Call it holding
   * the lock.
   */
  stage(options?: { readonly onStep?: PublishHook }): Promise<Staging>;
  /**
   * A file or folder under the root that evalshard did not write (`isEvalshardOwn`), or null: nothing
   * there, or only a dataset of its own. A publish replaces what it finds at its names, so a job refuses
   * such an output unless forced (issue 40).
   */
  foreignFile(): Promise<string | null>;
}
