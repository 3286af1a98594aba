/**
 * The one primitive under {@link ObjectStorage}: a flat namespace of objects with conditional writes, which
 * S3, GCS and Azure Blob all offer. The snapshot folders, the pointer, the lease lock and the staging are
 * written once over it; a store is a thin adapter (`S3ObjectStore`, `MemoryObjectStore`).
 *
 * Keys are relative to the store's root (an S3 bucket and prefix) and opaque to the store. An adapter maps its
 * failures to `ConfigError` (configuration: a missing bucket, refused credentials) or `IoError`, naming the
 * object by {@link ObjectStore.url} and never a credential; a failed condition is no error but a null answer.
 */
export interface ObjectStore {
  /** Where the object `key` is ("" for the root), for messages: `s3://bucket/prefix/key`. */
  url(key: string): string;
  /** The object's size, ETag and user metadata; null when there is none. */
  head(key: string): Promise<ObjectHead | null>;
  /** The object's bytes, streamed; null when there is none. */
  get(key: string): Promise<AsyncIterable<Uint8Array> | null>;
  /** Starts a streamed upload (multipart where large); the object appears, whole, once it is closed. */
  put(key: string): ObjectUpload;
  /** Writes a small object only if there is none (`If-None-Match: *`): its ETag, or null when one exists. */
  putIfAbsent(key: string, body: Uint8Array): Promise<string | null>;
  /** Replaces a small object only if its ETag is still `etag` (`If-Match`): the new ETag, or null when it changed. */
  putIfMatch(key: string, body: Uint8Array, etag: string): Promise<string | null>;
  /** A copy inside the store (server-side where it has one); `metadata` replaces the source's. */
  copy(from: string, to: string, metadata?: Readonly<Record<string, string>>): Promise<void>;
  /** Every object whose key starts with `prefix`, in no particular order. */
  list(prefix: string): Promise<ObjectEntry[]>;
  /** Deletes objects; a missing one is no error. */
  delete(keys: readonly string[]): Promise<void>;
}

/** What a head tells of an object. */
export interface ObjectHead {
  readonly bytes: number;
  readonly etag: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/** One listed object. */
export interface ObjectEntry {
  readonly key: string;
  readonly bytes: number;
}

/** An upload under way: bytes go in order; the object exists only once {@link close} resolved. */
export interface ObjectUpload {
  /** Resolves once the store holds on to the bytes itself: the caller may reuse its buffer then. */
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
  /** Gives up; no object and no part is left behind by the upload (an object already there stays). */
  abort(): Promise<void>;
}
