import { once } from "node:events";
import { PassThrough } from "node:stream";
import type { Readable } from "node:stream";
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { errorName, httpStatus, s3Error } from "./s3-error.js";
import type { S3Target } from "./s3-error.js";
import { s3Url } from "./s3-location.js";
import type { S3Location } from "./s3-location.js";
import type { ObjectEntry, ObjectHead, ObjectStore, ObjectUpload } from "./object-store.js";

/** Multipart part size: 8 MiB, so memory per open file stays near (queue + 1) × part size. */
const PART_BYTES = 8 << 20;
/** Parts uploaded at once per file. */
const QUEUE = 2;
/** Deletes at once; S3 takes thousands of requests per second per prefix. */
const DELETE_CONCURRENCY = 16;

/**
 * The objects under `s3://BUCKET/PREFIX/` through the AWS SDK: key `k` is the object `PREFIX/k`. Every
 * failure is an {@link s3Error} (the object and endpoint named, secrets removed); 412 and 409 (a concurrent
 * conditional write) are a failed condition.
 */
export class S3ObjectStore implements ObjectStore {
  constructor(
    readonly client: S3Client,
    readonly where: S3Location,
    readonly endpoint: string | undefined,
  ) {}

  url(key: string): string {
    return s3Url(this.where, key);
  }

  async head(key: string): Promise<ObjectHead | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.where.bucket, Key: this.#key(key) }));
      return { bytes: head.ContentLength ?? 0, etag: head.ETag ?? "", metadata: head.Metadata ?? {} };
    } catch (error) {
      if (errorName(error) === "NotFound" || errorName(error) === "NoSuchKey") return null;
      throw s3Error(error, "inspect", this.#target(key));
    }
  }

  async get(key: string): Promise<AsyncIterable<Uint8Array> | null> {
    const target = this.#target(key);
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.where.bucket, Key: this.#key(key) }));
      return streamOf(response.Body as Readable, target);
    } catch (error) {
      if (errorName(error) === "NoSuchKey") return null;
      throw s3Error(error, "read", target);
    }
  }

  put(key: string): ObjectUpload {
    return s3Upload(this.client, { Bucket: this.where.bucket, Key: this.#key(key) }, this.#target(key));
  }

  putIfAbsent(key: string, body: Uint8Array): Promise<string | null> {
    return this.#putSmall(key, body, { IfNoneMatch: "*" });
  }

  putIfMatch(key: string, body: Uint8Array, etag: string): Promise<string | null> {
    return this.#putSmall(key, body, { IfMatch: etag });
  }

  async copy(from: string, to: string, metadata?: Readonly<Record<string, string>>): Promise<void> {
    const source = `${this.where.bucket}/${this.#key(from).split("/").map(encodeURIComponent).join("/")}`;
    const replace = metadata === undefined ? {} : { Metadata: { ...metadata }, MetadataDirective: "REPLACE" as const };
    await this.client.send(new CopyObjectCommand({ Bucket: this.where.bucket, Key: this.#key(to), CopySource: source, ...replace })).catch((error: unknown) => {
      throw s3Error(error, `copy ${this.url(from)} to`, this.#target(to));
    });
  }

  async list(prefix: string): Promise<ObjectEntry[]> {
    const out: ObjectEntry[] = [];
    const start = this.#key(prefix);
    let token: string | undefined;
    do {
      const page = await this.client
        .send(new ListObjectsV2Command({ Bucket: this.where.bucket, Prefix: start, ...(token === undefined ? {} : { ContinuationToken: token }) }))
        .catch((error: unknown) => {
          throw s3Error(error, "list", this.#target(prefix));
        });
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) out.push({ key: object.Key.slice(this.where.prefix.length), bytes: object.Size ?? 0 });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return out;
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
      await Promise.all(
        keys.slice(i, i + DELETE_CONCURRENCY).map((key) =>
          this.client.send(new DeleteObjectCommand({ Bucket: this.where.bucket, Key: this.#key(key) })).catch((error: unknown) => {
            throw s3Error(error, "delete", this.#target(key));
          }),
        ),
      );
    }
  }

  async #putSmall(key: string, body: Uint8Array, condition: { IfNoneMatch: string } | { IfMatch: string }): Promise<string | null> {
    try {
      const out = await this.client.send(new PutObjectCommand({ Bucket: this.where.bucket, Key: this.#key(key), Body: body, ContentType: "application/json", ...condition }));
      return out.ETag ?? "";
    } catch (error) {
      if (httpStatus(error) === 412 || httpStatus(error) === 409 || errorName(error) === "PreconditionFailed") return null;
      throw s3Error(error, "write", this.#target(key));
    }
  }

  #key(key: string): string {
    return `${this.where.prefix}${key}`;
  }

  #target(key: string): S3Target {
    return { url: this.url(key), bucket: this.where.bucket, endpoint: this.endpoint };
  }
}

/**
 * One object streamed through `@aws-sdk/lib-storage`: a single PUT below a part, a multipart upload above,
 * memory bounded by the part size whatever the object's size.
 */
function s3Upload(client: S3Client, params: { Bucket: string; Key: string }, target: S3Target): ObjectUpload {
  const body = new PassThrough({ highWaterMark: 1 << 20 });
  const upload = new Upload({ client, params: { ...params, Body: body }, partSize: PART_BYTES, queueSize: QUEUE, leavePartsOnError: false });
  const done = upload.done();
  let failure: unknown = null;
  done.catch((error: unknown) => {
    failure = error;
    // Unblocks a write waiting for "drain" that will never come.
    body.destroy();
  });
  const check = () => {
    if (failure !== null) throw s3Error(failure, "upload", target);
  };
  return {
    async write(bytes) {
      check();
      // A copy: the caller may reuse its buffer once this resolves, while the stream still holds the chunk.
      if (!body.write(Buffer.from(bytes))) {
        await Promise.race([once(body, "drain"), done.catch(() => undefined)]);
        check();
      }
    },
    async close() {
      body.end();
      await done.catch((error: unknown) => {
        throw s3Error(error, "upload", target);
      });
    },
    async abort() {
      // Aborts the multipart upload, so no part is left billed in the bucket.
      await upload.abort().catch(() => undefined);
      body.destroy();
      await done.catch(() => undefined);
    },
  };
}

/** A response body that reports a broken stream as an error naming the object. */
async function* streamOf(body: Readable, target: S3Target): AsyncIterable<Uint8Array> {
  try {
    yield* body as AsyncIterable<Uint8Array>;
  } catch (error) {
    throw s3Error(error, "read", target);
  }
}
