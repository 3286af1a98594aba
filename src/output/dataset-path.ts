import { SNAPSHOTS } from "./object-snapshot-pointer.js";

/** A path a manifest names, as `verify` reads and compares it. */
export interface DatasetPath {
  /** What to read through the dataset's storage: the manifest's path as written. */
  readonly read: string;
  /** The same file as the dataset's own listing and its state name it (`data/…`, `_quarantine/…`). */
  readonly dataset: string;
}

/**
 * Where a path a manifest names (a shard, the quarantine) is in the dataset, or null for one that leaves it
 * (`../x`, `/etc/x`, `C:\\x`, empty or `.` segments, a backslash, a control character): a manifest is data,
 * and such a path is a fault of the dataset, never a file to open.
 */
export function datasetPath(path: unknown): DatasetPath | null {
  if (typeof path !== "string" || path === "" || path.startsWith("/") || /^[A-Za-z]:/.test(path)) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return null;
  if (path.split("/").some((part) => part === "" || part === "." || part === "..")) return null;
  return shardPath(path);
}

/**
 * Where a path of a root manifest the dataset wrote is. A manifest on object storage names its snapshot's
 * folder (`snapshots/<id>/data/…`), so that a reader resolves it from the dataset's root (issue 39); the
 * dataset's listing (`data/…`) and a nightly's `_state/` name the same file without that folder. A local
 * manifest names `data/…`, which is both.
 */
export function shardPath(path: string): DatasetPath {
  if (!path.startsWith(SNAPSHOTS)) return { read: path, dataset: path };
  const slash = path.indexOf("/", SNAPSHOTS.length);
  return { read: path, dataset: slash < 0 ? path : path.slice(slash + 1) };
}
