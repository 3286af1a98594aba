import { IoError } from "../core/errors.js";
import type { ObjectEntry, ObjectHead, ObjectStore, ObjectUpload } from "./object-store.js";

interface StoredObject {
  readonly bytes: Buffer;
  readonly etag: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * An {@link ObjectStore} in memory, with the conditional writes S3 has (an ETag per write, `If-None-Match: *`,
 * `If-Match`), which s3rver lacks: the contract tests run the object storage over it and over s3rver, and
 * prove the races only a store that honours conditions can decide. Also the template of an adapter.
 */
export class MemoryObjectStore implements ObjectStore {
  readonly #objects = new Map<string, StoredObject>();
  #writes = 0;

  constructor(private readonly name = "memory") {}

  url(key: string): string {
    return `memory://${this.name}/${key}`.replace(/\/$/, "");
  }

  async head(key: string): Promise<ObjectHead | null> {
    const object = this.#objects.get(key);
    return object === undefined ? null : { bytes: object.bytes.length, etag: object.etag, metadata: object.metadata };
  }

  async get(key: string): Promise<AsyncIterable<Uint8Array> | null> {
    const object = this.#objects.get(key);
    return object === undefined ? null : chunksOf(Buffer.from(object.bytes));
  }

  put(key: string): ObjectUpload {
    const chunks: Buffer[] = [];
    return {
      write: async (bytes) => void chunks.push(Buffer.from(bytes)),
      close: async () => void this.#set(key, Buffer.concat(chunks), {}),
      abort: async () => void chunks.splice(0),
    };
  }

  async putIfAbsent(key: string, body: Uint8Array): Promise<string | null> {
    return this.#objects.has(key) ? null : this.#set(key, Buffer.from(body), {});
  }

  async putIfMatch(key: string, body: Uint8Array, etag: string): Promise<string | null> {
    return this.#objects.get(key)?.etag !== etag ? null : this.#set(key, Buffer.from(body), {});
  }

  async copy(from: string, to: string, metadata?: Readonly<Record<string, string>>): Promise<void> {
    const object = this.#objects.get(from);
    if (object === undefined) throw new IoError(`Cannot copy ${this.url(from)}: no such object`, this.url(from));
    this.#set(to, object.bytes, metadata ?? object.metadata);
  }

  async list(prefix: string): Promise<ObjectEntry[]> {
    return [...this.#objects].filter(([key]) => key.startsWith(prefix)).map(([key, object]) => ({ key, bytes: object.bytes.length }));
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.#objects.delete(key);
  }

  #set(key: string, bytes: Buffer, metadata: Readonly<Record<string, string>>): string {
    const etag = `"${++this.#writes}"`;
    this.#objects.set(key, { bytes, etag, metadata: { ...metadata } });
    return etag;
  }
}

async function* chunksOf(bytes: Buffer): AsyncIterable<Uint8Array> {
  yield bytes;
}
