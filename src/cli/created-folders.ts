import { rmdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { exists } from "../output/local-sync.js";

/**
 * The folders of a local output path that do not exist yet, deepest first: what a run would create on its way
 * to writing there. Only these may be removed afterwards; anything that was there before is the user's.
 */
export async function missingFolders(path: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if (await exists(dir)) return missing;
    missing.push(dir);
    if (dirname(dir) === dir) return missing;
  }
}

/**
 * Removes the folders `missingFolders` named before a run, deepest first, while they are empty: a failed or dry
 * run leaves no empty `--out` behind, and never removes a folder that holds anything (rmdir refuses those).
 */
export async function removeCreatedFolders(folders: readonly string[]): Promise<void> {
  for (const folder of folders) {
    try {
      await rmdir(folder);
    } catch {
      return; // not empty (or already gone): it, and so its parents, stay
    }
  }
}
