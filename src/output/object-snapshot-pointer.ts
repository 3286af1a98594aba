import { IoError } from "../core/errors.js";
import type { ObjectFiles } from "./object-files.js";
import type { StoredFile } from "./storage.js";
import { tryParseJson } from "../core/try-parse-json.js";

/** The commit record of a dataset on object storage, relative to its prefix. */
export const POINTER_PATH = ".evalshard/current.json";
/** Where snapshot folders live, relative to the dataset's prefix. */
export const SNAPSHOTS = "snapshots/";

/**
 * Which snapshot is the dataset now. Written once per publish, conditionally on the ETag of the one it
 * replaces, so a job that lost its lock cannot commit over a newer snapshot.
 */
export interface SnapshotPointer {
  readonly version: 1;
  /** The folder name under `snapshots/`, e.g. "000007-3f9a1c": the number, then a random part. */
  readonly snapshot: string;
  readonly number: number;
  /** When it was published. */
  readonly published: string;
  /** The top-level entries its publish replaced (what a recovery must finish). */
  readonly entries: readonly string[];
  /** Every file of the snapshot, by its path in the dataset. */
  readonly files: readonly StoredFile[];
  /** Published snapshots still kept, oldest first, this one last. */
  readonly history: readonly string[];
  /**
   * The snapshot this one replaced: kept until the next publish even beyond `history`, so a reader that
   * followed the previous manifest reads on (issue 40). Absent in pointers written before.
   */
  readonly replaced?: string;
  /**
   * The fencing token of the last lock holder that deleted dead runs' folders: written (conditionally) before
   * it deletes them, so a job that lost the lock between its check and its commit fails its `If-Match`.
   */
  readonly fence?: number;
}

/** The snapshot folders `pointer` keeps: its history, and the one it replaced (for that one's readers, issue 40). */
export function keptFolders(pointer: SnapshotPointer | null): Set<string> {
  return new Set([...(pointer?.history ?? []), ...(pointer?.replaced === undefined ? [] : [pointer.replaced])]);
}

/** The pointer and its ETag; null for a dataset never published on object storage. */
export async function readPointer(files: ObjectFiles): Promise<{ pointer: SnapshotPointer; etag: string } | null> {
  const found = await files.readTagged(POINTER_PATH);
  if (found === null) return null;
  const pointer = tryParseJson(found.text) as Partial<SnapshotPointer> | null | undefined;
  if (pointer?.version === 1 && typeof pointer.snapshot === "string" && Array.isArray(pointer.files)) return { pointer: pointer as SnapshotPointer, etag: found.etag };
  const url = `${files.location}/${POINTER_PATH}`;
  throw new IoError(`${url} is not a snapshot pointer evalshard wrote; inspect the dataset by hand`, url);
}

/** Writes the pointer if the current one still has ETag `previous` (or there is none, for null). */
export async function writePointer(files: ObjectFiles, pointer: SnapshotPointer, previous: string | null): Promise<void> {
  const written = await files.putIf(POINTER_PATH, Buffer.from(`${JSON.stringify(pointer, null, 1)}\n`), previous);
  if (written === null) throw new IoError(`Cannot publish ${files.location}: another job published a snapshot meanwhile (the lock was lost); nothing of this run is visible`, files.location);
}
