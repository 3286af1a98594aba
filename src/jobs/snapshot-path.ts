import { stat } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "../core/errors.js";
import { keptSnapshotNumbers, snapshotsDir } from "../output/local-snapshot-storage.js";
import { snapshotFolder } from "../output/snapshot-folder.js";

/**
 * The folder of snapshot `number` of a local nightly dataset (`DIR.snapshots/000007/`, next to it): a dataset of its own,
 * its manifest and card naming its shards at the same relative paths. A snapshot no longer kept (or never
 * published) is a {@link ConfigError} that lists the kept ones.
 */
export async function snapshotPath(dir: string, number: number): Promise<string> {
  const path = join(snapshotsDir(dir), snapshotFolder(number));
  if ((await stat(path).catch(() => null))?.isDirectory() === true) return path;
  const kept = await keptSnapshotNumbers(dir);
  throw new ConfigError(`${JSON.stringify(dir)} keeps no snapshot ${number}: ${kept.length === 0 ? "it keeps none (snapshots are kept by pull and run)" : `it keeps ${kept.join(", ")}`}`);
}
