import { ConfigError } from "../core/errors.js";
import { ObjectFileWriter } from "./object-file-writer.js";
import type { ObjectHead, ObjectStore } from "./object-store.js";
import type { FileWriter, Files, StoredFile } from "./storage.js";
import { readText } from "./write-text.js";

/**
 * {@link Files} on the objects of a store under one key prefix, path for key: `path` is the object
 * `prefix + path`. No folders: a folder is the objects whose keys start with it.
 */
export class ObjectFiles implements Files {
  readonly location: string;

  constructor(
    readonly store: ObjectStore,
    /** "" or ending in "/". */
    readonly prefix = "",
  ) {
    this.location = store.url(prefix);
  }

  /** The files under `folder` ("snapshots/<id>/"), as their own root. */
  within(folder: string): ObjectFiles {
    return new ObjectFiles(this.store, `${this.prefix}${folder}`);
  }

  /** The object key of `path`. */
  key(path: string): string {
    if (path.split("/").some((part) => part === ".." || part === "." || part === "") || /\\/.test(path)) {
      throw new ConfigError(`Expected a relative "/"-separated path inside ${this.location}, got ${JSON.stringify(path)}`);
    }
    return `${this.prefix}${path}`;
  }

  async create(path: string): Promise<FileWriter> {
    return new ObjectFileWriter(this.store, this.key(path));
  }

  async read(path: string): Promise<AsyncIterable<Uint8Array> | null> {
    return this.store.get(this.key(path));
  }

  /** The object's size, ETag and metadata; null when there is none. */
  head(path: string): Promise<ObjectHead | null> {
    return this.store.head(this.key(path));
  }

  /** A small object's text and ETag (a record replaced conditionally: the pointer, the lease); null when there is none. */
  async readTagged(path: string): Promise<{ readonly text: string; readonly etag: string } | null> {
    const head = await this.head(path);
    const text = head === null ? null : await readText(this, path);
    return head === null || text === null ? null : { text, etag: head.etag };
  }

  /** Writes a small object only while its ETag is `etag`, or only where there is none (`etag` null): its new ETag, or null when that no longer holds. */
  putIf(path: string, body: Uint8Array, etag: string | null): Promise<string | null> {
    return etag === null ? this.store.putIfAbsent(this.key(path), body) : this.store.putIfMatch(this.key(path), body, etag);
  }

  async list(prefix: string): Promise<StoredFile[]> {
    return (await this.store.list(`${this.prefix}${prefix}`)).map((o) => ({ path: o.key.slice(this.prefix.length), bytes: o.bytes }));
  }

  /** The names of the "folders" right under `prefix` (paths cut at the next "/"). */
  async folders(prefix: string): Promise<string[]> {
    const names = (await this.list(prefix)).map((f) => f.path.slice(prefix.length)).filter((rest) => rest.includes("/"));
    return [...new Set(names.map((rest) => rest.slice(0, rest.indexOf("/"))))];
  }

  /** A copy inside the store (server-side on S3): no byte passes through this process. */
  copy(fromKey: string, to: string, metadata?: Readonly<Record<string, string>>): Promise<void> {
    return this.store.copy(fromKey, this.key(to), metadata);
  }

  /** Object stores have no rename: a copy, then the delete of the original. */
  async rename(from: string, to: string): Promise<void> {
    await this.copy(this.key(from), to);
    await this.store.delete([this.key(from)]);
  }

  async remove(path: string): Promise<void> {
    const keys = [this.key(path), ...(await this.list(`${path}/`)).map((f) => this.key(f.path))];
    await this.store.delete(keys);
  }

  /** Deletes every file under `prefix`. */
  async removeAll(prefix: string): Promise<void> {
    await this.store.delete((await this.list(prefix)).map((f) => this.key(f.path)));
  }
}
