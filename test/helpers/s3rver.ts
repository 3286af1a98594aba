import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/**
 * Starts s3rver on loopback on a free port, storing in a fresh temp directory, with `bucket` created.
 * No mock of the SDK: requests go over HTTP, signed, to a server that checks the signature.
 */
export async function startS3rver(bucket = "evalshard-test"): Promise<S3Server> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
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
