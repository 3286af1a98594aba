import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { filesOf } from "./files-of.js";
import { LocalFiles } from "./local-files.js";
import type { Fence, PublishHook, Staging } from "./storage.js";
import { ioStep, ioStepOr } from "../core/io-step.js";
import { JOURNAL, OLD_PREFIX, readJournal, rollForward } from "./local-journal.js";
import { CURRENT, finishSnapshot, linkTree, publishSnapshot, SNAPSHOTS_DIR } from "./local-snapshots.js";
import type { SnapshotGrace } from "./local-snapshots.js";
import { exists } from "./local-sync.js";
import { PendingFlushes } from "./pending-flushes.js";
import { REJECTED_DIR } from "./publish-guard.js";
import { topLevelEntries } from "./top-level-entries.js";

const TMP_PREFIX = ".evalshard-tmp-";

/**
 * A run's private directory inside the output directory, `outDir/.evalshard-tmp-<id>/`, published as an
 * immutable snapshot folder and one atomic switch (`publishSnapshot`); crash-safe, see
 * {@link recoverStaging}. Its scratch is the directory itself.
 */
export interface LocalStaging extends Staging {
  /** Where the whole output is written. */
  readonly dir: string;
}

/** What {@link recoverStaging} did. */
export interface Recovery {
  /** Staging directories whose publish was finished (a journal of the layout before snapshots). */
  readonly rolledForward: string[];
  /** Staging directories of unfinished runs, deleted. */
  readonly discarded: string[];
}

/**
 * Creates `outDir` if needed and a fresh staging directory inside it, after recovering earlier runs.
 * Call it holding the output lock ({@link lockOutput}): recovery deletes other runs' staging directories.
 * `fence` (the lock's check) is awaited before the recovery and before the publish's switch and deletes.
 */
export async function openStaging(outDir: string, options: { readonly onStep?: PublishHook; readonly fence?: Fence } & Partial<SnapshotGrace> = {}): Promise<LocalStaging> {
  await ioStep(outDir, "create the output directory", () => mkdir(outDir, { recursive: true }));
  const fence = options.fence ?? (async () => undefined);
  await fence();
  await recoverStaging(outDir);
  const id = `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
  const dir = join(outDir, `${TMP_PREFIX}${id}`);
  await ioStep(dir, "create the staging directory", () => mkdir(dir));
  const step = options.onStep ?? (() => undefined);
  let publishing = false;
  // A staged file's sync to disk runs while the job goes on; the publish and a reject wait for them all.
  const flushes = new PendingFlushes();
  const files = new LocalFiles(dir, flushes);
  return {
    ...filesOf(files),
    dir,
    scratch: dir,
    // A hard link (a copy where links fail), through the entry's link into the current snapshot.
    reuse: (path) => linkTree(join(outDir, ...path.split("/")), files.at(path)),
    async publish(entries) {
      const names = topLevelEntries(entries, "the output directory");
      // A folder entry ("_quarantine/") is published even when empty, as a local reader expects it.
      for (const name of names.filter((n) => entries.includes(`${n}/`))) await ioStep(dir, "create", () => mkdir(join(dir, name), { recursive: true }));
      publishing = true;
      await publishSnapshot(outDir, dir, id, names, step, flushes, { graceMs: options.graceMs ?? 0, sleep: options.sleep ?? sleep }, fence);
      await ioStep(dir, "delete the staging directory", () => rm(dir, { recursive: true, force: true }));
      await step("done");
    },
    async reject(entries, name) {
      const target = join(outDir, REJECTED_DIR, name);
      await flushes.settle();
      await ioStep(target, "create the folder for a rejected attempt", () => mkdir(target, { recursive: true }));
      for (const entry of topLevelEntries(entries, "the output directory")) {
        if (await exists(join(dir, entry))) await ioStep(join(target, entry), "keep the rejected", () => rename(join(dir, entry), join(target, entry)));
      }
      await ioStep(dir, "delete the staging directory", () => rm(dir, { recursive: true, force: true }));
      return target;
    },
    async abort() {
      // Their files are dropped, but their handles close first.
      await flushes.settle().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      // A publish that failed may have switched already: recovery finishes it (or drops its unswitched
      // folder). If that fails too, the next recoverStaging does it; and a job that lost the lock leaves
      // it to the holder, whose staging the recovery would delete.
      if (publishing) await fence().then(() => recoverStaging(outDir)).catch(() => undefined);
    },
  };
}

/**
 * Brings `outDir` back to a whole published version after a crash: staging directories of unfinished
 * runs are deleted (a journal of the layout before snapshots is rolled forward); after the switch, the
 * current snapshot's links are finished; snapshot folders other than the current one and entries left
 * aside are deleted. Call it holding the output lock ({@link lockOutput}).
 */
export async function recoverStaging(outDir: string): Promise<Recovery> {
  const recovery: Recovery = { rolledForward: [], discarded: [] };
  const names: string[] = await ioStepOr(outDir, "list", [], () => readdir(outDir));
  for (const name of names.filter((n) => n.startsWith(TMP_PREFIX))) {
    const dir = join(outDir, name);
    const journal = await readJournal(join(dir, JOURNAL));
    if (journal === null) {
      await ioStep(dir, "delete the unfinished staging directory", () => rm(dir, { recursive: true, force: true }));
      recovery.discarded.push(dir);
    } else {
      await rollForward(outDir, dir, journal);
      recovery.rolledForward.push(dir);
    }
  }
  for (const name of names.filter((n) => n.startsWith(`${CURRENT}.tmp-`))) await rm(join(outDir, name), { force: true });
  if (names.includes(SNAPSHOTS_DIR)) await finishSnapshot(outDir, () => undefined);
  for (const name of names.filter((n) => n.startsWith(OLD_PREFIX))) {
    const dir = join(outDir, name);
    await ioStep(dir, "delete the replaced output", () => rm(dir, { recursive: true, force: true }));
  }
  return recovery;
}
