import { ConfigError } from "../core/errors.js";
import { isEvalshardOwn } from "./evalshard-own.js";
import { keptSnapshots } from "./kept-snapshots.js";
import { ObjectFiles } from "./object-files.js";
import { finishSnapshot } from "./object-finish-snapshot.js";
import type { LeaseLock } from "./lease-lock.js";
import { takeObjectLease } from "./object-lease-lock.js";
import { keptFolders, readPointer, SNAPSHOTS, writePointer } from "./object-snapshot-pointer.js";
import type { SnapshotPointer } from "./object-snapshot-pointer.js";
import { openObjectStaging } from "./object-staging.js";
import type { ObjectStaging } from "./object-staging.js";
import type { ObjectStore } from "./object-store.js";
import { withStepSignals } from "./with-step-signals.js";
import type { Fence, FileWriter, Lock, PublishHook, Storage, StoredFile } from "./storage.js";

/** Options of {@link ObjectStorage}. */
export interface ObjectStorageOptions {
  /** How long a lock outlives its job's last renewal. Default 5 minutes. */
  readonly leaseMs?: number;
  /** Published snapshots kept (the current one included). Default 7: a week of nights. */
  readonly keepSnapshots?: number;
  /** The local directory under which a staging's scratch directory is made. Default the OS temp directory. */
  readonly scratchDir?: string;
}

/**
 * A dataset on object storage, any {@link ObjectStore} (S3, another cloud's buckets, memory in tests).
 * Every publish is a snapshot folder `snapshots/<n>-<random>/`, immutable once committed; `.evalshard/current.json` (the pointer) says which one is current, and
 * `README.md` and `manifest.json` at the prefix are copies of the current snapshot's, written after the
 * pointer (the manifest last); the manifest names its shards by their folder (`snapshots/<id>/data/…`), which
 * this class reads as named. Otherwise, read through this class, paths are the dataset's ("data/…", "manifest.json"):
 * those of the current snapshot, then any other object under the prefix ("loose" files, written directly
 * or by an older tool). The lock is a lease (object-lease-lock.ts).
 */
export class ObjectStorage implements Storage {
  readonly location: string;
  /** Every object under the dataset's root, evalshard's own included. */
  readonly root: ObjectFiles;
  readonly #options: ObjectStorageOptions;
  #held: LeaseLock | null = null;

  constructor(store: ObjectStore, options: ObjectStorageOptions = {}) {
    this.root = new ObjectFiles(store);
    this.location = this.root.location;
    this.#options = options;
  }

  /** The current snapshot's pointer; null before the first publish. */
  async current(): Promise<SnapshotPointer | null> {
    return (await readPointer(this.root))?.pointer ?? null;
  }

  async create(path: string): Promise<FileWriter> {
    await this.#refuseSnapshotPath(path, "write");
    return this.root.create(path);
  }

  async read(path: string): Promise<AsyncIterable<Uint8Array> | null> {
    this.root.key(path);
    // A manifest's paths name its snapshot's folder (issue 39): a kept snapshot's files are read as named.
    if (path.startsWith(SNAPSHOTS)) return this.root.read(path);
    const found = await this.#resolve(path);
    return found === null ? null : this.root.store.get(found.key);
  }

  async list(prefix: string): Promise<StoredFile[]> {
    const pointer = await this.current();
    const out = new Map<string, StoredFile>();
    for (const file of await this.root.list(prefix)) if (!internal(file.path)) out.set(file.path, file);
    // The snapshot's files win over root copies and loose files of the same path.
    for (const file of pointer?.files ?? []) if (file.path.startsWith(prefix)) out.set(file.path, file);
    return [...out.values()];
  }

  async rename(from: string, to: string): Promise<void> {
    await this.#refuseSnapshotPath(from, "rename");
    await this.#refuseSnapshotPath(to, "write");
    await this.root.rename(from, to);
  }

  async remove(path: string): Promise<void> {
    await this.#refuseSnapshotPath(path, "remove");
    await this.root.remove(path);
  }

  async foreignFile(): Promise<string | null> {
    const pointer = await this.current();
    const published = pointer === null ? null : pointer.files.map((f) => f.path.split("/")[0] ?? "");
    const paths = (await this.root.list("")).map((f) => f.path).sort();
    return paths.find((path) => !isEvalshardOwn(path, { link: null, published })) ?? null;
  }

  async lock(): Promise<Lock> {
    this.#held = await takeObjectLease(this.root, this.#options.leaseMs ?? 5 * 60_000);
    return this.#held;
  }

  /** Finishes what a crashed publish left (root copies, cleanup), drops dead runs' folders, opens the next snapshot. */
  async stage(options: { readonly onStep?: PublishHook } = {}): Promise<ObjectStaging> {
    // A staging opened under this storage's lock checks it before its commit and each delete.
    const held = this.#held;
    const fence: Fence = async () => held?.check();
    const found = await readPointer(this.root);
    if (found !== null && held !== null && (await this.#deadFolders(found.pointer)) > 0) {
      // Before a dead run's folder goes, the pointer changes (its fence): a job that lost the lock while stalled
      // between its check and its commit then fails the commit's If-Match instead of naming a deleted folder.
      await fence();
      await writePointer(this.root, { ...found.pointer, fence: held.fence }, found.etag);
    }
    // Before the first commit there is no pointer to change: the folders of dead runs wait for the first publish.
    if (found !== null) await finishSnapshot(this.root, await this.current(), () => undefined, fence);
    return openObjectStaging({
      root: this.root,
      resolve: (path) => this.#resolve(path),
      keepSnapshots: keptSnapshots(this.#options.keepSnapshots),
      scratchDir: this.#options.scratchDir,
      onStep: withStepSignals(options.onStep) ?? (() => undefined),
      fence,
    });
  }

  /** How many snapshot folders the pointer does not keep: those of runs that died (or stalled) before their commit. */
  async #deadFolders(pointer: SnapshotPointer): Promise<number> {
    const kept = keptFolders(pointer);
    return (await this.root.folders(SNAPSHOTS)).filter((folder) => !kept.has(folder)).length;
  }

  /** Where the published file `path` is: in the current snapshot, else a loose object. */
  async #resolve(path: string): Promise<{ key: string; bytes: number } | null> {
    const pointer = await this.current();
    const file = pointer?.files.find((f) => f.path === path);
    if (pointer !== null && file !== undefined) return { key: this.root.key(`${SNAPSHOTS}${pointer.snapshot}/${path}`), bytes: file.bytes };
    if (internal(path)) return null;
    const head = await this.root.head(path);
    return head === null ? null : { key: this.root.key(path), bytes: head.bytes };
  }

  /** Published snapshots are immutable: change them only through a staging. */
  async #refuseSnapshotPath(path: string, what: string): Promise<void> {
    this.root.key(path);
    if (internal(path)) throw new ConfigError(`Cannot ${what} ${this.location}/${path}: evalshard keeps its snapshots and lock there`);
    const pointer = await this.current();
    if (pointer?.files.some((f) => f.path === path || f.path.startsWith(`${path}/`)) === true) {
      throw new ConfigError(`Cannot ${what} ${this.location}/${path}: it belongs to the published snapshot ${pointer.snapshot}; write a new snapshot through stage() and publish()`);
    }
  }
}

/** Objects of evalshard's own under the prefix, never a dataset path. */
function internal(path: string): boolean {
  return path.startsWith(SNAPSHOTS) || path.startsWith(".evalshard/");
}

