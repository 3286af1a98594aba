import { createHash } from "node:crypto";
import { IoError } from "../core/errors.js";
import type { ObjectStore, ObjectUpload } from "./object-store.js";
import type { FileWriter, WrittenFile } from "./storage.js";

/** A file streamed to one object ({@link ObjectStore.put}), hashed as written; the object exists only once {@link close} resolved. */
export class ObjectFileWriter implements FileWriter {
  bytes = 0;
  readonly name: string;
  readonly #hash = createHash("sha256");
  readonly #upload: ObjectUpload;
  #state: "open" | "closed" | "aborted" = "open";

  constructor(
    private readonly store: ObjectStore,
    private readonly key: string,
  ) {
    this.name = store.url(key);
    this.#upload = store.put(key);
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.name}: the file is ${this.#state}`, this.name);
    this.#hash.update(bytes);
    this.bytes += bytes.length;
    await this.#upload.write(bytes);
  }

  async close(): Promise<WrittenFile> {
    if (this.#state !== "open") throw new IoError(`Cannot close ${this.name}: the file is ${this.#state}`, this.name);
    this.#state = "closed";
    await this.#upload.close();
    return { bytes: this.bytes, sha256: this.#hash.digest("hex") };
  }

  async abort(): Promise<void> {
    const wasOpen = this.#state === "open";
    this.#state = "aborted";
    if (wasOpen) await this.#upload.abort();
    await this.store.delete([this.key]).catch(() => undefined);
  }
}
