import { IoError } from "../core/errors.js";
import { isRecord } from "../core/is-record.js";
import type { Files } from "./storage.js";
import { readText } from "./write-text.js";

/** What every evalshard manifest holds, read back: its shard list. A caller names the other fields it reads. */
export interface PublishedManifest {
  readonly shards: readonly unknown[];
}

/** A manifest read back: its text (the seal is over it, `manifestSealProblem`) and its fields, as `M` names them. */
export interface ReadManifest<M> {
  readonly text: string;
  readonly manifest: M;
}

/** Why there is no manifest to read: none at the path, or a file that is not an evalshard manifest. */
export interface ManifestProblem {
  readonly kind: "manifest_missing" | "manifest_unreadable";
  readonly message: string;
}

/**
 * The one reader of a published `manifest.json` (a dataset's, a snapshot folder's, a root copy's): read
 * through `files`, parsed, and checked to be an object with a `shards` list. `M` is what the caller reads
 * of it; the file is checked only to be a manifest (`verify` checks the rest).
 */
export async function readManifest<M extends object = PublishedManifest>(files: Files, path = "manifest.json"): Promise<ReadManifest<M> | ManifestProblem> {
  const text = await readText(files, path);
  if (text === null) return { kind: "manifest_missing", message: `${JSON.stringify(files.location)} is not an evalshard output: it has no ${path}` };
  try {
    const manifest = JSON.parse(text) as unknown;
    if (!isRecord(manifest) || !Array.isArray(manifest.shards)) throw new Error("it has no `shards` list");
    return { text, manifest: manifest as M };
  } catch (error) {
    return { kind: "manifest_unreadable", message: `${files.location}/${path} is not an evalshard manifest: ${(error as Error).message}` };
  }
}

/** {@link readManifest}'s fields, or null where there is no manifest to compare with (`verify` says what is wrong). */
export async function publishedManifest<M extends object = PublishedManifest>(files: Files, path?: string): Promise<M | null> {
  const read = await readManifest<M>(files, path);
  return "kind" in read ? null : read.manifest;
}

/** {@link readManifest}'s fields for a job that cannot go on without them: a problem is an IoError naming the file. */
export async function requiredManifest<M extends object = PublishedManifest>(files: Files, path = "manifest.json"): Promise<M> {
  const read = await readManifest<M>(files, path);
  if ("kind" in read) throw new IoError(read.message, `${files.location}/${path}`);
  return read.manifest;
}
