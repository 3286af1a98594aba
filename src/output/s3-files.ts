import type { Readable } from "node:stream";
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import { ConfigError } from "../core/errors.js";
import { errorName, s3Error } from "./s3-error.js";
import type { S3Target } from "./s3-error.js";
import { S3FileWriter } from "./s3-file-writer.js";
import { s3Url } from "./s3-location.js";
import type { S3Location } from "./s3-location.js";
import type { FileWriter, Files, StoredFile } from "./storage.js";

/** Deletes at once; S3 takes thousands of requests per second per prefix. */
const DELETE_CONCURRENCY = 16;

/** An object's user metadata and size, from a HEAD. */
export interface S3Head {
  readonly bytes: number;
  readonly etag: string | undefined;
  readonly metadata: Readonly<Record<string, string>>;
}

/**
 * {@link Files} on the objects under one key prefix, path for key: `path` is the object
 * `prefix + path`. No folders: a folder is the objects whose keys start with it.
 */
export class S3Files implements Files {
  readonly location: string;

  constructor(
    readonly client: S3Client,
    readonly where: S3Location,
    readonly endpoint: string | undefined,
  ) {
    this.location = s3Url(where);
  }

  /** The object key of `path`. */
  key(path: string): string {
    if (path.split("/").some((part) => part === ".." || part === "." || part === "") || /\\/.test(path)) {
      throw new ConfigError(`Expected a relative "/"-separated path inside ${this.location}, got ${JSON.stringify(path)}`);
    }
    return `${this.where.prefix}${path}`;
  }

  /** Where the object `key` is, for messages. */
  target(key: string): S3Target & { readonly key: string } {
    return { url: `s3://${this.where.bucket}/${key}`, bucket: this.where.bucket, endpoint: this.endpoint, key };
  }

  async create(path: string, metadata?: Readonly<Record<string, string>>): Promise<FileWriter> {
    return new S3FileWriter(this.client, this.target(this.key(path)), metadata);
  }

  async read(path: string): Promise<AsyncIterable<Uint8Array> | null> {
    return this.readKey(this.key(path));
  }

  /** The object `key`'s bytes, streamed; null when there is none. */
  async readKey(key: string): Promise<AsyncIterable<Uint8Array> | null> {
    const target = this.target(key);
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.where.bucket, Key: key }));
      return streamOf(response.Body as Readable, target);
    } catch (error) {
      if (errorName(error) === "NoSuchKey") return null;
      throw s3Error(error, "read", target);
    }
  }

  /** The object's size and metadata; null when there is none. */
  async head(path: string): Promise<S3Head | null> {
    const key = this.key(path);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.where.bucket, Key: key }));
      return { bytes: head.ContentLength ?? 0, etag: head.ETag, metadata: head.Metadata ?? {} };
    } catch (error) {
      if (errorName(error) === "NotFound" || errorName(error) === "NoSuchKey") return null;
      throw s3Error(error, "inspect", this.target(key));
    }
  }

  async list(prefix: string): Promise<StoredFile[]> {
    const out: StoredFile[] = [];
    const start = `${this.where.prefix}${prefix}`;
    let token: string | undefined;
    do {
      const page = await this.client
        .send(new ListObjectsV2Command({ Bucket: this.where.bucket, Prefix: start, ...(token === undefined ? {} : { ContinuationToken: token }) }))
        .catch((error: unknown) => {
          throw s3Error(error, "list", this.target(start));
        });
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        out.push({ path: object.Key.slice(this.where.prefix.length), bytes: object.Size ?? 0 });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return out;
  }

  /** The names of the "folders" right under `prefix` (keys cut at the next "/"). */
  async folders(prefix: string): Promise<string[]> {
    const out: string[] = [];
    const start = `${this.where.prefix}${prefix}`;
    let token: string | undefined;
    do {
      const page = await this.client
        .send(new ListObjectsV2Command({ Bucket: this.where.bucket, Prefix: start, Delimiter: "/", ...(token === undefined ? {} : { ContinuationToken: token }) }))
        .catch((error: unknown) => {
          throw s3Error(error, "list", this.target(start));
        });
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix !== undefined) out.push(p.Prefix.slice(start.length).replace(/\/$/, ""));
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return out;
  }

  /** A server-side copy: no byte passes through this process. */
  async copy(fromKey: string, to: string, metadata?: Readonly<Record<string, string>>): Promise<void> {
    const key = this.key(to);
    await this.client
      .send(
        new CopyObjectCommand({
          Bucket: this.where.bucket,
          Key: key,
          CopySource: `${this.where.bucket}/${fromKey.split("/").map(encodeURIComponent).join("/")}`,
          ...(metadata === undefined ? {} : { Metadata: { ...metadata }, MetadataDirective: "REPLACE" as const }),
        }),
      )
      .catch((error: unknown) => {
        throw s3Error(error, `copy s3://${this.where.bucket}/${fromKey} to`, this.target(key));
      });
  }

  /** S3 has no rename: a server-side copy, then the delete of the original. */
  async rename(from: string, to: string): Promise<void> {
    await this.copy(this.key(from), to);
    await this.deleteKeys([this.key(from)]);
  }

  async remove(path: string): Promise<void> {
    const keys = [this.key(path), ...(await this.list(`${path}/`)).map((f) => this.key(f.path))];
    await this.deleteKeys(keys);
  }

  /** Deletes objects; deleting a missing one is no error in S3. */
  async deleteKeys(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
      await Promise.all(
        keys.slice(i, i + DELETE_CONCURRENCY).map((key) =>
          this.client.send(new DeleteObjectCommand({ Bucket: this.where.bucket, Key: key })).catch((error: unknown) => {
            throw s3Error(error, "delete", this.target(key));
          }),
        ),
      );
    }
  }
}

/** A response body that reports a broken stream as an error naming the object. */
async function* streamOf(body: Readable, target: S3Target): AsyncIterable<Uint8Array> {
  try {
    yield* body as AsyncIterable<Uint8Array>;
  } catch (error) {
    throw s3Error(error, "read", target);
  }
}
