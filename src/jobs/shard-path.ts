import { SNAPSHOTS } from "../output/object-snapshot-pointer.js";

/** A path a manifest names, as `verify` reads and compares it. */
export interface ShardPath {
  /** What to read through the dataset's storage: the manifest's path as written. */
  readonly read: string;
  /** The same file as the dataset's own listing and its state name it (`data/…`, `_quarantine/…`). */
  readonly dataset: string;
}

/**
 * Where a path of a root manifest is. A manifest on object storage names its snapshot's folder
 * (`snapshots/<id>/data/…`), so that a reader resolves it from the dataset's root (issue 39); the
 * dataset's listing (`data/…`) and a nightly's `_state/` name the same file without that folder. A local
 * manifest names `data/…`, which is both.
 */
export function shardPath(path: string): ShardPath {
  if (!path.startsWith(SNAPSHOTS)) return { read: path, dataset: path };
  const slash = path.indexOf("/", SNAPSHOTS.length);
  return { read: path, dataset: slash < 0 ? path : path.slice(slash + 1) };
}
