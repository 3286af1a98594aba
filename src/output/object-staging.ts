import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, IoError } from "../core/errors.js";
import type { ObjectFiles } from "./object-files.js";
import { filesOf } from "./files-of.js";
import { finishSnapshot } from "./object-finish-snapshot.js";
import { REJECTED_DIR } from "./publish-guard.js";
import { snapshotFolder } from "./snapshot-folder.js";
import { readPointer, SNAPSHOTS, writePointer } from "./object-snapshot-pointer.js";
import type { SnapshotPointer } from "./object-snapshot-pointer.js";
import type { Fence, PublishHook, Staging, StoredFile } from "./storage.js";
import { topLevelEntries } from "./top-level-entries.js";

/** What a staging needs from its storage. */
export interface ObjectStagingContext {
  /** The dataset's objects, path for key under its prefix. */
  readonly root: ObjectFiles;
  /** The physical key of a published file `path` (a snapshot file, or a loose one); null when none. */
  resolve(path: string): Promise<{ key: string; bytes: number } | null>;
  readonly keepSnapshots: number;
  readonly scratchDir: string | undefined;
  readonly onStep: PublishHook;
  /** The lock's check, awaited right before the commit and before any delete. */
  readonly fence: Fence;
}

/** A staging on object storage: a new snapshot folder `snapshots/<id>/`, which nothing names until its publish. */
export interface ObjectStaging extends Staging {
  readonly snapshot: string;
  readonly number: number;
  /** `snapshots/<snapshot>/`. */
  readonly base: string;
}

/**
 * Opens the next snapshot's folder. Publishing it uploads nothing more: it copies in (server-side) the
 * files of entries it does not replace, writes the pointer (the commit for evalshard), then the root
 * copies of its top-level files, `README.md` before and `manifest.json` last (the commit for readers
 * that follow them); see {@link finishSnapshot}.
 */
export async function openObjectStaging(context: ObjectStagingContext): Promise<ObjectStaging> {
  const { root } = context;
  const current = await readPointer(root);
  const number = (current?.pointer.number ?? 0) + 1;
  const snapshot = `${snapshotFolder(number)}-${randomBytes(3).toString("hex")}`;
  const base = `${SNAPSHOTS}${snapshot}/`;
  const files = root.within(base);
  const scratch = await mkdtemp(join(context.scratchDir ?? tmpdir(), "evalshard-stage-"));
  const step = context.onStep;
  const fence = context.fence;
  let committed: SnapshotPointer | null = null;

  const dropFolder = async () => {
    await files.removeAll("");
    await rm(scratch, { recursive: true, force: true });
  };

  return {
    snapshot,
    number,
    base,
    ...filesOf(files),
    scratch,
    async reuse(path) {
      const source = await context.resolve(path);
      if (source === null) throw new ConfigError(`Cannot reuse ${root.location}/${path}: the dataset has no such file`);
      await files.copy(source.key, path);
    },
    async publish(entries) {
      const names = topLevelEntries(entries, "the dataset", SNAPSHOTS.slice(0, -1));
      const inEntries = (path: string) => names.includes(path.split("/")[0] as string);
      const staged = await files.list("");
      // The manifest is staged last before a publish: without it, the folder was deleted under this job.
      if (names.includes("manifest.json") && !staged.some((f) => f.path === "manifest.json")) {
        await fence();
        throw new IoError(`The staging folder ${files.location} of this job was deleted: nothing of this run was published, and the dataset is as it was`, files.location);
      }
      // Staged files outside the entries are not part of the new version.
      await root.store.delete(staged.filter((f) => !inEntries(f.path)).map((f) => files.key(f.path)));
      const kept: StoredFile[] = staged.filter((f) => inEntries(f.path));
      // The entries not replaced carry over: copied server-side, so every snapshot folder is whole.
      const before = await readPointer(root);
      const unchanged = (seen: typeof before) => {
        // Checked here as well as by the conditional write, for stores that ignore If-Match (s3rver).
        if ((seen?.etag ?? null) === (current?.etag ?? null) && seen?.pointer.snapshot === current?.pointer.snapshot) return;
        throw new IoError(`Cannot publish ${root.location}: another job published snapshot ${seen?.pointer.snapshot ?? "(none)"} meanwhile (this job's lock was lost); nothing of this run is visible`, root.location);
      };
      unchanged(before);
      for (const file of before?.pointer.files ?? []) {
        if (inEntries(file.path)) continue;
        const source = await context.resolve(file.path);
        if (source === null) continue;
        await files.copy(source.key, file.path);
        kept.push({ path: file.path, bytes: file.bytes });
      }
      await step("staged");
      const history = [...(before?.pointer.history ?? []), snapshot];
      const pointer: SnapshotPointer = {
        version: 1,
        snapshot,
        number,
        published: new Date().toISOString(),
        entries: names,
        files: kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
        history: history.slice(Math.max(0, history.length - context.keepSnapshots)),
        ...(before === null ? {} : { replaced: before.pointer.snapshot }),
      };
      // The fence, right before the commit: this job still holds the lease, and nobody committed meanwhile.
      await fence();
      unchanged(await readPointer(root));
      await writePointer(root, pointer, before === null ? null : before.etag);
      committed = pointer;
      await step("pointer");
      await finishSnapshot(root, pointer, step, fence);
      await rm(scratch, { recursive: true, force: true });
      await step("done");
    },
    async reject(entries, name) {
      const names = topLevelEntries(entries, "the dataset", SNAPSHOTS.slice(0, -1));
      const to = `${REJECTED_DIR}/${name}/`;
      for (const f of await files.list("")) {
        if (names.includes(f.path.split("/")[0] as string)) await root.copy(files.key(f.path), `${to}${f.path}`);
      }
      await dropFolder();
      return `${root.location}/${to}`;
    },
    async abort() {
      if (committed === null) {
        await dropFolder();
        return;
      }
      // Past the commit: only finishing leaves the root copies consistent; a failure here (a lost lock
      // included) is finished by the next stage().
      await finishSnapshot(root, committed, () => undefined, fence).catch(() => undefined);
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
