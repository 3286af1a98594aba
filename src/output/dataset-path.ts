/**
 * THE place a path a manifest names (a shard, the quarantine) becomes a path to read through the dataset's
 * `Files`: today the same string, relative to the dataset's root on every storage. A change of layout
 * (e.g. shard paths that name an S3 snapshot folder) changes this function and nothing that calls it.
 * Null for a path that leaves the dataset (`../x`, `/etc/x`, `C:\x`, empty or `.` segments, a backslash, a
 * control character): a manifest is data, and such a path is a fault of the dataset, never a file to open.
 */
export function datasetPath(path: unknown): string | null {
  if (typeof path !== "string" || path === "" || path.startsWith("/") || /^[A-Za-z]:/.test(path)) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return null;
  if (path.split("/").some((part) => part === "" || part === "." || part === "..")) return null;
  return path;
}
