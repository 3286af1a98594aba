import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { mkdir, rename } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll } from "vitest";

/** The credentials s3rver accepts (its built-in account). Not secrets: they exist only on loopback. */
export const S3RVER_KEY = "S3RVER";

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** A running s3rver: a real S3 REST server storing on disk. */
export interface S3Server {
  /** `http://127.0.0.1:PORT`. */
  readonly endpoint: string;
  /** A bucket created at start. */
  readonly bucket: string;
  /** Where it stores objects. */
  readonly dir: string;
  stop(): Promise<void>;
}

interface S3rverObject {
  readonly bucket: string;
  readonly key: string;
  readonly content: Buffer | NodeJS.ReadableStream;
  readonly metadata: Record<string, string>;
}
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
}

/**
 * s3rver 3.7 answers a PUT once its body was read, before the bytes reach its file, and writes over the
 * object's file in place: a GET right after the answer can read the old or a torn object, and two PUTs of one
 * key land in either order (a lease written, read back, then overwritten by the earlier PUT's late bytes). A
 * real store answers after the object is whole: its objects are written to a temporary file and renamed, and
 * the answer waits for that.
 */
function answerPutsWhenStored(require: NodeJS.Require): void {
  const store = (require("s3rver/lib/stores/filesystem") as { prototype: FilesystemStore }).prototype;
  store.putObject = async function (this: FilesystemStore, object: S3rverObject) {
    const path = this.getResourcePath(object.bucket, object.key, "object");
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
    const md5 = createHash("md5");
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    const content = Buffer.isBuffer(object.content) ? [object.content] : object.content;
    await pipeline(content, count, createWriteStream(temp));
    await rename(temp, path);
    const digest = md5.digest("hex");
    await this.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}

/**
 * Starts s3rver on loopback on a free port, storing in a fresh temp directory, with `bucket` created.
 * No mock of the SDK: requests go over HTTP, signed, to a server that checks the signature.
 */
export async function startS3rver(bucket = "evalshard-test"): Promise<S3Server> {
  const require = createRequire(import.meta.url);
  answerPutsWhenStored(require);
  const S3rver = require("s3rver") as S3rverClass;
  const dir = mkdtempSync(join(tmpdir(), "evalshard-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory: dir, silent: true, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    dir,
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Points the AWS SDK's default chain (environment) at `server`, as a user's environment would. */
export function useS3rverEnvironment(server: S3Server): void {
  process.env["AWS_ACCESS_KEY_ID"] = S3RVER_KEY;
  process.env["AWS_SECRET_ACCESS_KEY"] = S3RVER_KEY;
  process.env["AWS_REGION"] = "us-east-1";
  process.env["AWS_ENDPOINT_URL_S3"] = server.endpoint;
}

/** s3rver for the calling test file, started before its tests with the SDK's environment pointed at it, stopped after. */
export function s3rverForFile(): () => S3Server {
  let server: S3Server | undefined;
  beforeAll(async () => {
    server = await startS3rver();
    useS3rverEnvironment(server);
  });
  afterAll(() => server?.stop());
  return () => {
    if (server === undefined) throw new Error("s3rver is not started yet: call it inside a test");
    return server;
  };
}

/** The whole environment of a CLI child process that reaches `server` through the SDK's default chain. */
export function s3rverCliEnv(server: S3Server): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    AWS_ACCESS_KEY_ID: S3RVER_KEY,
    AWS_SECRET_ACCESS_KEY: S3RVER_KEY,
    AWS_REGION: "us-east-1",
    AWS_ENDPOINT_URL_S3: server.endpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}
