/**
 * Whether a path a manifest names (a shard, the quarantine) stays inside the dataset: the path itself, to
 * read from the dataset's root, or null for one that leaves it (`../x`, `/etc/x`, `C:\\x`, empty or `.`
 * segments, a backslash, a control character). A manifest is data, and such a path is a fault of the
 * dataset, never a file to open. Where a safe path's file sits in the dataset's own listing (an S3 root
 * manifest names its snapshot's folder) is `jobs/shard-path.ts`'s `shardPath`.
 */
export function datasetPath(path: unknown): string | null {
  if (typeof path !== "string" || path === "" || path.startsWith("/") || /^[A-Za-z]:/.test(path)) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return null;
  if (path.split("/").some((part) => part === "" || part === "." || part === "..")) return null;
  return path;
}
