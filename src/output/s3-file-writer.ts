import { createHash } from "node:crypto";
import { once } from "node:events";
import { PassThrough } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { IoError } from "../core/errors.js";
import { s3Error } from "./s3-error.js";
import type { S3Target } from "./s3-error.js";
import type { FileWriter, WrittenFile } from "./storage.js";

/** Multipart part size: 8 MiB, so memory per open file stays near (queue + 1) × part size. */
export const PART_BYTES = 8 << 20;
/** Parts uploaded at once per file. */
const QUEUE = 2;

/**
 * A file streamed to one S3 object: a single PUT when it is smaller than a part, a multipart upload
 * (`@aws-sdk/lib-storage`) otherwise, with memory bounded by the part size whatever the file's size.
 * Hashed as written; the object exists under its key only once {@link close} resolved.
 */
export class S3FileWriter implements FileWriter {
  bytes = 0;
  readonly #hash = createHash("sha256");
  readonly #body = new PassThrough({ highWaterMark: 1 << 20 });
  readonly #done: Promise<unknown>;
  readonly #upload: Upload;
  #failure: unknown = null;
  #state: "open" | "closed" | "aborted" = "open";

  constructor(
    private readonly client: S3Client,
    private readonly target: S3Target & { readonly key: string },
    metadata: Readonly<Record<string, string>> = {},
  ) {
    this.#upload = new Upload({
      client,
      params: { Bucket: target.bucket, Key: target.key, Body: this.#body, Metadata: { ...metadata } },
      partSize: PART_BYTES,
      queueSize: QUEUE,
      leavePartsOnError: false,
    });
    this.#done = this.#upload.done();
    this.#done.catch((error: unknown) => {
      this.#failure = error;
      // Unblocks a write waiting for "drain" that will never come.
      this.#body.destroy();
    });
  }

  get name(): string {
    return this.target.url;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.#state !== "open") throw new IoError(`Cannot write to ${this.name}: the file is ${this.#state}`, this.name);
    this.#check();
    this.#hash.update(bytes);
    this.bytes += bytes.length;
    // A copy: the caller may reuse its buffer once this resolves, while the stream still holds the chunk.
    if (!this.#body.write(Buffer.from(bytes))) {
      await Promise.race([once(this.#body, "drain"), this.#done.catch(() => undefined)]);
      this.#check();
    }
  }

  async close(): Promise<WrittenFile> {
    if (this.#state !== "open") throw new IoError(`Cannot close ${this.name}: the file is ${this.#state}`, this.name);
    this.#state = "closed";
    this.#body.end();
    try {
      await this.#done;
    } catch (error) {
      throw s3Error(error, "upload", this.target);
    }
    return { bytes: this.bytes, sha256: this.#hash.digest("hex") };
  }

  async abort(): Promise<void> {
    const wasOpen = this.#state === "open";
    this.#state = "aborted";
    if (wasOpen) {
      // Aborts the multipart upload, so no part is left billed in the bucket.
      await this.#upload.abort().catch(() => undefined);
      this.#body.destroy();
      await this.#done.catch(() => undefined);
    }
    await this.client.send(new DeleteObjectCommand({ Bucket: this.target.bucket, Key: this.target.key })).catch(() => undefined);
  }

  #check(): void {
    if (this.#failure !== null) throw s3Error(this.#failure, "upload", this.target);
  }
}
