import { mkdir, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ioStep } from "../core/io-step.js";
import { linkTree } from "./local-snapshots.js";
import { snapshotFolder } from "./snapshot-folder.js";
import { LocalStorage } from "./local-storage.js";
import type { LocalStorageOptions } from "./local-storage.js";
import type { LocalStaging } from "./local-staging.js";
import type { PublishHook } from "./storage.js";

/** Where evalshard before issue 39 kept a local dataset's snapshots: `OUT/snapshots/000007/`, moved out on publish. */
const LEGACY_SNAPSHOTS = "snapshots";
const PENDING = ".pending";

/**
 * Where a local dataset keeps its published snapshots: next to it, `OUT.snapshots/000007/`. Not inside:
 * a recursive read of the dataset (DuckDB's `**` glob, which enters every real folder, hidden ones too)
 * would read every kept night again (issue 39; docs/decisions.md).
 */
export function snapshotsDir(location: string): string {
  return `${resolve(location)}.snapshots`;
}

/** The numbers of the snapshots a local dataset keeps ({@link snapshotsDir}), oldest first. */
export async function keptSnapshotNumbers(location: string): Promise<number[]> {
  const names = await readdir(snapshotsDir(location)).catch(() => [] as string[]);
  return names.filter((n) => /^\d+$/.test(n)).map(Number).sort((a, b) => a - b);
}

/**
 * A local dataset whose every publish is also kept as a numbered snapshot, `OUT.snapshots/<n>/`
 * ({@link snapshotsDir}, on the same filesystem as its parent): hard links to
 * the published files, so a snapshot costs no bytes for what it shares with others and a file replaced
 * later lives on under the snapshots that name it. The `keep` newest are kept; deleting an older folder
 * frees the files no kept snapshot (nor the current dataset) names. A snapshot folder is a dataset on its
 * own: its card and manifest describe its shards at the same relative paths.
 */
export class LocalSnapshotStorage extends LocalStorage {
  constructor(
    location: string,
    readonly keep: number,
    options: LocalStorageOptions = {},
  ) {
    super(location, options);
  }

  override async stage(options: { readonly onStep?: PublishHook } = {}): Promise<LocalStaging> {
    const staging = await super.stage(options);
    const fence = this.fence;
    const root = snapshotsDir(this.location);
    await this.#migrate(root);
    await this.#recover(root);
    const numbers = await keptSnapshotNumbers(this.location);
    const number = (numbers.at(-1) ?? 0) + 1;
    const pending = join(root, `${snapshotFolder(number)}${PENDING}`);
    return {
      ...staging,
      number,
      publish: async (entries) => {
        // Linked before the publish, so a crash between the two is told apart by the manifest's inode.
        await fence();
        await rm(pending, { recursive: true, force: true });
        await mkdir(pending, { recursive: true });
        const listed = new Set(entries.map((e) => e.replace(/\/$/, "")));
        for (const name of listed) await linkIfThere(join(staging.dir, name), join(pending, name));
        for (const name of await readdir(this.location)) {
          if (!listed.has(name) && !name.startsWith(".") && name !== LEGACY_SNAPSHOTS) await linkIfThere(join(this.location, name), join(pending, name));
        }
        await staging.publish(entries);
        await ioStep(pending, "keep the snapshot", () => rename(pending, join(root, snapshotFolder(number))));
        await fence();
        await this.#prune(root);
      },
    };
  }

  /**
   * Moves the snapshots an older evalshard kept inside the dataset (`OUT/snapshots/<n>/`) next to it, so
   * the next night of an old dataset reads and keeps them as before. Only evalshard's numbered folders move.
   */
  async #migrate(root: string): Promise<void> {
    const legacy = join(this.location, LEGACY_SNAPSHOTS);
    const names = await readdir(legacy).catch(() => null);
    if (names === null) return;
    const ours = names.filter((n) => /^\d+(\.pending)?$/.test(n));
    if (ours.length === 0) return;
    await ioStep(root, "create the snapshots folder", () => mkdir(root, { recursive: true }));
    for (const name of ours) {
      const to = join(root, name);
      if ((await stat(to).catch(() => null)) !== null) await rm(join(legacy, name), { recursive: true, force: true });
      else await ioStep(to, "move the snapshot out of the dataset", () => rename(join(legacy, name), to));
    }
    // Gone once empty: a folder of the user's own there stays.
    await rmdir(legacy).catch(() => undefined);
  }

  /** A pending folder whose manifest is the published one was committed (rename it); any other is dropped. */
  async #recover(root: string): Promise<void> {
    // Followed: the published manifest is a link into the current snapshot folder (local-snapshots.ts).
    const current = await stat(join(this.location, "manifest.json")).catch(() => null);
    for (const name of await readdir(root).catch(() => [] as string[])) {
      if (!name.endsWith(PENDING)) continue;
      const folder = join(root, name);
      const manifest = await stat(join(folder, "manifest.json")).catch(() => null);
      if (current !== null && manifest !== null && manifest.ino === current.ino && manifest.dev === current.dev) await rename(folder, join(root, name.slice(0, -PENDING.length)));
      else await rm(folder, { recursive: true, force: true });
    }
  }

  async #prune(root: string): Promise<void> {
    const numbers = await keptSnapshotNumbers(this.location);
    for (const number of numbers.slice(0, Math.max(0, numbers.length - this.keep))) {
      const folder = join(root, snapshotFolder(number));
      await ioStep(folder, "delete the snapshot", () => rm(folder, { recursive: true, force: true }));
    }
  }
}

/** {@link linkTree}, where there is something at `from` (a staged entry may not have been written). */
async function linkIfThere(from: string, to: string): Promise<void> {
  if ((await stat(from).catch(() => null)) !== null) await linkTree(from, to);
}
