import { WriteStream } from "node:fs";
import { inspect } from "node:util";
import { Readable } from "node:stream";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { ConfigError, IoError } from "../../src/core/errors.js";
import { s3Client } from "../../src/output/s3-client.js";
import { s3Error } from "../../src/output/s3-error.js";
import { S3Storage } from "../../src/output/s3-storage.js";
import { s3rverForFile } from "../helpers/s3rver.js";

const s3 = s3rverForFile();

// What only S3 has: the SDK's checksums, its error mapping, s3rver's gaps. The object storage over S3 (snapshots,
// pointer, lease lock, crashes) runs with the memory store's in object-storage.test.ts.
let counter = 0;

it("s3rver ignores If-None-Match and If-Match on PUT (so the race between two takers is proven only on real S3)", async () => {
  const client = s3Client();
  const Key = `t/conditional-${counter++}`;
  await client.send(new PutObjectCommand({ Bucket: s3().bucket, Key, Body: "first" }));
  // Real S3 answers 412 Precondition Failed to both.
  await client.send(new PutObjectCommand({ Bucket: s3().bucket, Key, Body: "second", IfNoneMatch: "*" }));
  await client.send(new PutObjectCommand({ Bucket: s3().bucket, Key, Body: "third", IfMatch: '"not-the-etag"' }));
  const body = await (await client.send(new GetObjectCommand({ Bucket: s3().bucket, Key }))).Body!.transformToString();
  expect(body).toBe("third");
});

it("s3rver (as the tests start it) answers a PUT once the object is whole, on a slow disk too", async () => {
  const client = s3Client();
  const Key = `t/ordered-${counter++}`;
  // A slow disk, as on a loaded machine: s3rver's own put answers before its file is written, so a GET then
  // reads a stale or torn object, and a lease read back as this job's is later overwritten by an earlier PUT.
  const write = WriteStream.prototype._write;
  WriteStream.prototype._write = function (this: WriteStream, ...args: Parameters<typeof write>) {
    setTimeout(() => write.apply(this, args), 30);
  };
  try {
    for (let round = 0; round < 3; round++) {
      await client.send(new PutObjectCommand({ Bucket: s3().bucket, Key, Body: `object ${round}` }));
      const read = await (await client.send(new GetObjectCommand({ Bucket: s3().bucket, Key }))).Body!.transformToString();
      expect(read).toBe(`object ${round}`);
    }
  } finally {
    WriteStream.prototype._write = write;
  }
});

describe("checksums", () => {
  it("plain bodies (WHEN_REQUIRED) are what make s3rver store a streamed upload as sent", async () => {
    const put = async (plainBodies: boolean) => {
      const Key = `t/checksum-${counter++}`;
      const Body = Readable.from([Buffer.from("hello, "), Buffer.from("object storage")]);
      await s3Client({ plainBodies }).send(new PutObjectCommand({ Bucket: s3().bucket, Key, Body, ContentLength: 21 }));
      return (await s3Client().send(new GetObjectCommand({ Bucket: s3().bucket, Key }))).Body!.transformToString();
    };
    expect(await put(true)).toBe("hello, object storage");
    // The SDK's default for AWS: an aws-chunked body with a checksum trailer, which s3rver keeps verbatim.
    const framed = await put(false);
    expect(framed).not.toBe("hello, object storage");
    expect(framed).toMatch(/x-amz-checksum-crc32/);
  });

  it("are the default for a custom endpoint, and the SDK's default for AWS", async () => {
    const custom = await s3Client().config.requestChecksumCalculation();
    expect(custom).toBe("WHEN_REQUIRED");
    const saved = process.env["AWS_ENDPOINT_URL_S3"];
    delete process.env["AWS_ENDPOINT_URL_S3"];
    try {
      expect(await s3Client().config.requestChecksumCalculation()).toBe("WHEN_SUPPORTED");
    } finally {
      process.env["AWS_ENDPOINT_URL_S3"] = saved;
    }
  });
});

describe("bad input names the bucket and endpoint, never a secret", () => {
  const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEVALSHARDsecret";
  const forms = (secret: string) => {
    const bytes = Buffer.from(secret);
    return [secret, bytes.toString("base64"), bytes.toString("base64url"), encodeURIComponent(secret), bytes.toString("hex"), secret.slice(0, 20)];
  };
  /** Everything a log could show of an error: message, stack, causes, own fields. */
  const shown = (error: unknown) => `${inspect(error, { depth: 10 })}\n${JSON.stringify(error)}\n${String((error as Error).stack)}`;

  async function failure(storage: S3Storage): Promise<Error> {
    try {
      await storage.lock();
    } catch (error) {
      return error as Error;
    }
    throw new Error("expected the lock to fail");
  }

  async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      return await fn();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }

  it("an unreachable endpoint: an IoError", async () => {
    const error = await withEnv({ AWS_SECRET_ACCESS_KEY: SECRET }, () => failure(new S3Storage(`s3://${s3().bucket}/x`, { endpoint: "http://127.0.0.1:9", maxAttempts: 1 })));
    expect(error).toBeInstanceOf(IoError);
    expect(error.message).toContain(`s3://${s3().bucket}/x`);
    expect(error.message).toContain("endpoint http://127.0.0.1:9");
    expect(error.message).toMatch(/ECONNREFUSED/);
    for (const form of forms(SECRET)) expect(shown(error)).not.toContain(form);
  });

  it("an endpoint with a password in it is shown without it", async () => {
    const error = await failure(new S3Storage(`s3://${s3().bucket}/x`, { endpoint: `http://user:${encodeURIComponent(SECRET)}@127.0.0.1:9`, maxAttempts: 1 }));
    expect(error.message).toContain("endpoint http://127.0.0.1:9");
    for (const form of forms(SECRET)) expect(shown(error)).not.toContain(form);
  });

  it("a missing bucket: a ConfigError saying so", async () => {
    const error = await failure(new S3Storage("s3://no-such-bucket/x"));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain("the bucket no-such-bucket does not exist");
    expect(error.message).toContain(`endpoint ${s3().endpoint}`);
  });

  // s3rver checks the access key id only (it does not verify SigV4 signatures), so a refused key stands
  // in for every denial here; a wrong secret is accepted by it (see the last test).
  it.each([
    ["an unknown key", { AWS_ACCESS_KEY_ID: "AKIAEVALSHARDUNKNOWN", AWS_SECRET_ACCESS_KEY: SECRET }],
    ["an unknown key with a session token", { AWS_ACCESS_KEY_ID: "AKIAEVALSHARDUNKNOWN", AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: `${SECRET}token` }],
  ])("denied credentials (%s): a ConfigError, no secret in any encoding", async (_case, env) => {
    const error = await withEnv(env, () => failure(new S3Storage(`s3://${s3().bucket}/denied`)));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`the credentials were refused for bucket ${s3().bucket}`);
    expect(error.message).toContain(`s3://${s3().bucket}/denied`);
    for (const form of [...forms(SECRET), ...forms(`${SECRET}token`)]) expect(shown(error)).not.toContain(form);
  });

  it("a server echoing the secret in an error, in any encoding, has it removed", async () => {
    await withEnv({ AWS_SECRET_ACCESS_KEY: SECRET }, async () => {
      const bytes = Buffer.from(SECRET);
      const echo = Object.assign(new Error(`bad signature for ${SECRET} / ${bytes.toString("base64")} / ${encodeURIComponent(SECRET)} / ${bytes.toString("hex")}`), {
        name: "SignatureDoesNotMatch",
        $metadata: { httpStatusCode: 403 },
      });
      const error = s3Error(echo, "write", { url: "s3://b/k", bucket: "b", endpoint: "http://127.0.0.1:1" });
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toMatch(/^Cannot write s3:\/\/b\/k \(endpoint http:\/\/127\.0\.0\.1:1\): the credentials were refused for bucket b: /);
      for (const form of forms(SECRET).slice(0, 5)) expect(shown(error)).not.toContain(form);
    });
  });

  it("s3rver accepts a wrong secret (it checks the key id only): real S3 answers SignatureDoesNotMatch, mapped as above", async () => {
    const storage = new S3Storage(`s3://${s3().bucket}/wrong-secret`);
    await withEnv({ AWS_SECRET_ACCESS_KEY: SECRET }, async () => (await storage.lock()).release());
  });
});
