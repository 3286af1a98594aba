import { mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { IoError } from "../core/errors.js";
import { ioStep, ioStepOr } from "../core/io-step.js";
import { exists, syncDir } from "./local-sync.js";
import { tryParseJson } from "../core/try-parse-json.js";
import { publishOrder } from "./publish-order.js";

/**
 * The publish journal of evalshard before snapshot folders (issue 20): a staging directory holding
 * `journal.json` had begun moving its entries into the output one by one. Only recovery reads it now, so a
 * dataset whose publish an older version left half done is still finished, not lost.
 */
export const JOURNAL = "journal.json";
export const OLD_PREFIX = ".evalshard-old-";

export interface Journal {
  readonly version: 1;
  readonly id: string;
  /** `present`: whether the staging directory held the entry when the journal was written. */
  readonly entries: readonly { readonly name: string; readonly present: boolean }[];
}

/** The journal in `path`; null when surely absent; throws on a file evalshard did not write. */
export async function readJournal(path: string): Promise<Journal | null> {
  // Only a journal that is surely absent lets recovery delete the directory.
  const text = await ioStepOr(path, "read the publish journal", null, () => readFile(path, "utf8"));
  if (text === null) return null;
  const journal = tryParseJson(text) as Partial<Journal> | null | undefined;
  if (journal?.version === 1 && typeof journal.id === "string" && Array.isArray(journal.entries)) return journal as Journal;
  // Written by rename, so this is not a torn write but a foreign file.
  throw new IoError(`The publish journal ${path} is not one evalshard wrote; inspect the output directory by hand`, path);
}

/** Finishes a journaled publish, idempotently: old entries go aside (the manifest first), new ones move in (the manifest last). */
export async function rollForward(outDir: string, stagingDir: string, journal: Journal): Promise<void> {
  const old = join(outDir, `${OLD_PREFIX}${journal.id}`);
  await ioStep(old, "create the directory for replaced entries", () => mkdir(old, { recursive: true }));
  const commitLast = publishOrder(journal.entries);
  for (const e of [...commitLast].reverse()) {
    // A staged entry that is gone has been moved in: what is in the output is already new.
    const replaceable = !e.present || (await exists(join(stagingDir, e.name)));
    if (replaceable && (await exists(join(outDir, e.name)))) {
      await ioStep(join(outDir, e.name), "move aside", () => rename(join(outDir, e.name), join(old, e.name)));
    }
  }
  await syncDir(old);
  for (const e of commitLast) {
    if (e.present && (await exists(join(stagingDir, e.name)))) {
      await ioStep(join(outDir, e.name), "move into place", () => rename(join(stagingDir, e.name), join(outDir, e.name)));
    }
  }
  await syncDir(outDir);
  await ioStep(old, "delete the replaced output", () => rm(old, { recursive: true, force: true }));
  // The journal goes last: until then a crash rolls forward again, which is a no-op.
  for (const name of await readdir(stagingDir)) {
    if (name !== JOURNAL) await rm(join(stagingDir, name), { recursive: true, force: true });
  }
  await ioStep(stagingDir, "delete the staging directory", () => rm(stagingDir, { recursive: true, force: true }));
}
