import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
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
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
  getMetadata(bucket: string, key: string): Promise<Record<string, string>>;
}
interface PutContext {
  readonly app: object;
  readonly params: { readonly bucket: string; readonly key: string };
  readonly headers: Record<string, string | undefined>;
  readonly req: AsyncIterable<unknown>;
  readonly store: FilesystemStore;
}
type PutHandler = (ctx: PutContext) => Promise<void>;

/**
 * s3rver 3.7 answers a PUT once its body was read, before the bytes reach its file, and writes over the
 * object's file in place: a GET right after the answer can read the old or a torn object, and two PUTs of one
 * key land in either order (a lease written, read back, then overwritten by the earlier PUT's late bytes). A
 * real store answers after the object is whole: its objects are written to a temporary file and renamed, and
 * the answer waits for that. Its metadata and MD5 files too: written in place, a GET meeting the write read an
 * empty metadata.json and answered 500 (seen in fenced-publish-s3 at load 33).
 */
function answerPutsWhenStored(require: NodeJS.Require): void {
  const store = (require("s3rver/lib/stores/filesystem") as { prototype: FilesystemStore }).prototype;
  const { ALLOWED_METADATA } = require("s3rver/lib/models/object") as { ALLOWED_METADATA: readonly string[] };
  const writeWhole = async (path: string, text: string) => {
    const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temp, text);
    await rename(temp, path);
  };
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
    const metadata = Object.fromEntries(Object.entries(object.metadata).filter(([key]) => ALLOWED_METADATA.includes(key) || key.startsWith("x-amz-meta-")));
    await writeWhole(this.getResourcePath(object.bucket, object.key, "object.md5"), digest);
    await writeWhole(this.getResourcePath(object.bucket, object.key, "metadata.json"), JSON.stringify(metadata, null, 2));
    return { size, md5: digest };
  };
}

/** The s3rver instances that honour `If-Match` and `If-None-Match` on a PUT. */
const conditional = new WeakSet<object>();

/**
 * s3rver 3.7 ignores `If-Match` and `If-None-Match` on a PUT; S3 has honoured them since 2024 (412 when the
 * condition fails). Without them, a lease renewal a job had under way when it was stopped lands when it resumes
 * and rewrites the lease another job took over meanwhile (docs/decisions.md). Checked and written one PUT of a
 * key at a time, as S3 does.
 */
function honourConditionalPuts(require: NodeJS.Require): void {
  const controller = require("s3rver/lib/controllers/object") as { putObject: PutHandler & { conditional?: true } };
  if (controller.putObject.conditional === true) return;
  const S3Error = require("s3rver/lib/models/error") as new (code: string, message: string, detail: Record<string, string>) => Error;
  const put = controller.putObject;
  const queues = new Map<string, Promise<unknown>>();
  const conditionalPut = async (ctx: PutContext): Promise<void> => {
    const ifMatch = ctx.headers["if-match"];
    const ifNoneMatch = ctx.headers["if-none-match"];
    if (!conditional.has(ctx.app) || (ifMatch === undefined && ifNoneMatch === undefined)) return put(ctx);
    const id = `${ctx.params.bucket}/${ctx.params.key}`;
    const turn = (queues.get(id) ?? Promise.resolve()).then(async () => {
      const metadata = await ctx.store.getMetadata(ctx.params.bucket, ctx.params.key).catch(() => null);
      const etag = metadata === null ? null : String(metadata["etag"]).replace(/"/g, "");
      const failed = (ifNoneMatch === "*" && etag !== null) || (ifMatch !== undefined && ifMatch.replace(/"/g, "") !== etag);
      if (!failed) return put(ctx);
      for await (const _ of ctx.req); // the body, read before the answer
      throw new S3Error("PreconditionFailed", "At least one of the pre-conditions you specified did not hold", { Condition: ifMatch === undefined ? "If-None-Match" : "If-Match" });
    });
    queues.set(id, turn.catch(() => undefined));
    return turn;
  };
  controller.putObject = Object.assign(conditionalPut, { conditional: true as const });
}

/**
 * Starts s3rver on loopback on a free port, storing in a fresh temp directory, with `bucket` created.
 * No mock of the SDK: requests go over HTTP, signed, to a server that checks the signature. `conditionalPuts`:
 * it honours `If-Match` and `If-None-Match` on a PUT, as S3 does.
 */
export async function startS3rver(bucket = "evalshard-test", options: { readonly conditionalPuts?: boolean } = {}): Promise<S3Server> {
  const require = createRequire(import.meta.url);
  answerPutsWhenStored(require);
  honourConditionalPuts(require);
  const S3rver = require("s3rver") as S3rverClass;
  const dir = mkdtempSync(join(tmpdir(), "evalshard-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory: dir, silent: true, configureBuckets: [{ name: bucket }] });
  if (options.conditionalPuts === true) conditional.add(server);
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
