import type { ObjectFiles } from "./object-files.js";
import { keptFolders, SNAPSHOTS } from "./object-snapshot-pointer.js";
import type { SnapshotPointer } from "./object-snapshot-pointer.js";
import { publishOrder } from "./publish-order.js";
import type { Fence, PublishHook } from "./storage.js";

/** Metadata on a root copy: which snapshot it was copied from. */
export const SNAPSHOT_METADATA = "evalshard-snapshot";

/**
 * Everything after the pointer, idempotent, so a publish and a recovery run the same steps:
 * 1. root copies of the snapshot's top-level files (`README.md`, whose card names this snapshot's
 *    shards, then `manifest.json` last), each tagged with the snapshot, copied only when stale;
 * 2. the replaced entries' root objects that are not such copies (files written before, copies of a
 *    file the snapshot no longer has) are deleted;
 * 3. snapshot folders the pointer does not keep are deleted: older ones beyond the history (the one it
 *    replaced stays until the next publish, for readers of the previous manifest), and those of runs that
 *    died before their commit.
 * With `pointer` null (nothing ever published) only the folders of dead runs go. `fence` (the lock's check)
 * is awaited before the copies and before the deletes: a job that lost its lock changes nothing more.
 */
export async function finishSnapshot(root: ObjectFiles, pointer: SnapshotPointer | null, step: PublishHook, fence: Fence = async () => undefined): Promise<void> {
  if (pointer !== null) {
    await fence();
    const base = `${SNAPSHOTS}${pointer.snapshot}/`;
    const topLevel = pointer.files.map((f) => f.path).filter((p) => !p.includes("/"));
    for (const name of publishOrder(topLevel)) {
      const head = await root.head(name);
      if (head?.metadata[SNAPSHOT_METADATA] !== pointer.snapshot) await root.copy(root.key(`${base}${name}`), name, { [SNAPSHOT_METADATA]: pointer.snapshot });
      await step(`root:${name}`);
    }
    const stale: string[] = [];
    for (const entry of pointer.entries) {
      if (!topLevel.includes(entry)) stale.push(root.key(entry));
      for (const file of await root.list(`${entry}/`)) stale.push(root.key(file.path));
    }
    await root.store.delete(stale);
    await step("cleaned");
  }
  const keep = keptFolders(pointer);
  // Listed before the check: a job that took the lock over since makes its folder after, so it is never listed.
  const folders = await root.folders(SNAPSHOTS);
  await fence();
  for (const folder of folders) {
    if (keep.has(folder)) continue;
    await root.removeAll(`${SNAPSHOTS}${folder}/`);
  }
  await step("pruned");
}
