import { inspect } from "node:util";
import { Readable } from "node:stream";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, IoError, LockedError } from "../../src/core/errors.js";
import { s3Client } from "../../src/output/s3-client.js";
import { s3Error } from "../../src/output/s3-error.js";
import { S3Storage } from "../../src/output/s3-storage.js";
import type { S3StorageOptions } from "../../src/output/s3-storage.js";
import { readText, writeText } from "../../src/output/write-text.js";
import { startS3rver, useS3rverEnvironment } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3rver();
  useS3rverEnvironment(s3);
});
afterAll(() => s3?.stop());

let counter = 0;
const fresh = (options: S3StorageOptions = {}) => new S3Storage(`s3://${s3.bucket}/t/d-${counter++}`, options);
/** Every object under the storage's prefix, as a reader with plain S3 access sees them. */
const objects = async (storage: S3Storage) => (await storage.root.list("")).map((f) => f.path).sort();
const paths = async (storage: S3Storage, prefix: string) => (await storage.list(prefix)).map((f) => f.path).sort();

/** A version of a dataset: shard, quarantine, a card naming its shards, and a manifest naming them. */
async function publishVersion(storage: S3Storage, run: string, options: { onStep?: (step: string) => void; crash?: boolean } = {}) {
  const staging = await storage.stage(options);
  const shard = `data/train-00000-of-00001.jsonl`;
  await writeText(staging, shard, `${run} rows\n`);
  await writeText(staging, "_quarantine/sft.ndjson", `${run} quarantine\n`);
  await writeText(staging, "README.md", `---\nconfigs: [{data_files: [${staging.base}${shard}]}]\n---\n${run} card\n`);
  await writeText(staging, "manifest.json", JSON.stringify({ run, base: staging.base, shards: [shard] }));
  try {
    await staging.publish(["data", "_quarantine/", "README.md", "manifest.json"]);
  } catch (error) {
    // A crash is a killed process: nothing of it runs on.
    if (options.crash !== true) await staging.abort();
    throw error;
  }
  return staging;
}

/** What a reader that follows the root `manifest.json` (boto3, DuckDB) gets: the run, and whether every shard it names is there. */
async function followManifest(storage: S3Storage): Promise<{ run: string; complete: boolean } | null> {
  const text = await readText(storage.root, "manifest.json");
  if (text === null) return null;
  const manifest = JSON.parse(text) as { run: string; base: string; shards: string[] };
  const bodies = await Promise.all(manifest.shards.map((p) => readText(storage.root, `${manifest.base}${p}`)));
  return { run: manifest.run, complete: bodies.every((b) => b === `${manifest.run} rows\n`) };
}

describe("a dataset on S3", () => {
  it("is a folder per snapshot, a pointer, and root copies of the card and manifest", async () => {
    const storage = fresh();
    const one = await publishVersion(storage, "one");
    const two = await publishVersion(storage, "two");
    expect(one.base).toMatch(/^snapshots\/000001-[0-9a-f]{6}\/$/);
    expect(two.base).toMatch(/^snapshots\/000002-[0-9a-f]{6}\/$/);
    const snapshot = (base: string, files: string[]) => files.map((f) => `${base}${f}`);
    const FILES = ["README.md", "_quarantine/sft.ndjson", "data/train-00000-of-00001.jsonl", "manifest.json"];
    expect(await objects(storage)).toEqual(
      [".evalshard/current.json", "README.md", "manifest.json", ...snapshot(one.base, FILES), ...snapshot(two.base, FILES)].sort(),
    );
    // Read through evalshard, it is the current snapshot at the dataset's own paths.
    expect(await paths(storage, "")).toEqual(FILES);
    expect(await readText(storage, "data/train-00000-of-00001.jsonl")).toBe("two rows\n");
    expect(await readText(storage.root, "README.md")).toContain(`[${two.base}data/train-00000-of-00001.jsonl]`);
    expect(await followManifest(storage)).toEqual({ run: "two", complete: true });
    expect((await storage.root.head("manifest.json"))?.metadata).toEqual({ "evalshard-snapshot": two.snapshot });
  });

  it("keeps the last keepSnapshots snapshots, each whole and readable where its manifest says", async () => {
    const storage = fresh({ keepSnapshots: 2 });
    await publishVersion(storage, "one");
    const two = await publishVersion(storage, "two");
    const three = await publishVersion(storage, "three");
    expect((await storage.root.folders("snapshots/")).sort()).toEqual([two.snapshot, three.snapshot]);
    expect((await storage.current())?.history).toEqual([two.snapshot, three.snapshot]);
    const pinned = JSON.parse((await readText(storage.root, `${two.base}manifest.json`))!) as { run: string };
    expect(pinned.run).toBe("two");
    expect(await readText(storage.root, `${two.base}data/train-00000-of-00001.jsonl`)).toBe("two rows\n");
  });

  it("keeps the snapshot a publish replaced until the next publish, even with keepSnapshots 1 (a reader's grace, issue 40)", async () => {
    const storage = fresh({ keepSnapshots: 1 });
    const one = await publishVersion(storage, "one");
    // A reader read the root manifest of "one"; "two" is published meanwhile; it reads on where "one" said.
    const read = JSON.parse((await readText(storage.root, "manifest.json"))!) as { base: string; shards: string[] };
    const two = await publishVersion(storage, "two");
    expect((await storage.current())?.history).toEqual([two.snapshot]);
    expect(await readText(storage.root, `${read.base}${read.shards[0]}`)).toBe("one rows\n");
    await publishVersion(storage, "three");
    expect(await storage.root.folders("snapshots/")).not.toContain(one.snapshot);
    expect(await storage.root.folders("snapshots/")).toContain(two.snapshot);
  });

  it("reuses a published file by a server-side copy, so each snapshot folder stands alone", async () => {
    const storage = fresh();
    const one = await publishVersion(storage, "one");
    const staging = await storage.stage();
    await staging.reuse("data/train-00000-of-00001.jsonl");
    await staging.publish(["data"]);
    expect(await readText(storage.root, `${staging.base}data/train-00000-of-00001.jsonl`)).toBe("one rows\n");
    // Entries not replaced are carried over into the new folder.
    expect(await readText(storage.root, `${staging.base}manifest.json`)).toBe(await readText(storage.root, `${one.base}manifest.json`));
    expect(await paths(storage, "")).toEqual(["README.md", "_quarantine/sft.ndjson", "data/train-00000-of-00001.jsonl", "manifest.json"]);
  });

  it("refuses to change a published snapshot in place", async () => {
    const storage = fresh();
    await publishVersion(storage, "one");
    await expect(storage.create("manifest.json")).rejects.toThrow(ConfigError);
    await expect(storage.remove("data")).rejects.toThrow(/published snapshot/);
    await expect(storage.create(".evalshard/lock")).rejects.toThrow(ConfigError);
  });

  it("a job killed before publish leaves an unnamed folder, deleted by the next job", async () => {
    const storage = fresh();
    await publishVersion(storage, "one");
    const dead = await storage.stage();
    await writeText(dead, "data/.train-00000.jsonl.partial", "half");
    expect(await paths(storage, "data/")).toEqual(["data/train-00000-of-00001.jsonl"]);
    const next = await storage.stage();
    expect(await storage.root.folders("snapshots/")).not.toContain(dead.snapshot);
    await next.abort();
    expect(await followManifest(storage)).toEqual({ run: "one", complete: true });
  });

  it("a job that lost its lock cannot publish over the snapshot of the job that took it", async () => {
    const storage = fresh();
    await publishVersion(storage, "one");
    const zombie = await storage.stage();
    await publishVersion(storage, "two");
    await writeText(zombie, "manifest.json", JSON.stringify({ run: "zombie", base: zombie.base, shards: [] }));
    await expect(zombie.publish(["manifest.json"])).rejects.toThrow(/another job published/);
    await zombie.abort();
    expect(await followManifest(storage)).toEqual({ run: "two", complete: true });
  });

  it("a job whose staging folder was deleted under it fails cleanly: the current snapshot stays (issue 40)", async () => {
    const storage = fresh();
    await publishVersion(storage, "one");
    const current = await storage.current();
    const staging = await storage.stage();
    await writeText(staging, "data/train-00000-of-00001.jsonl", "two rows\n");
    await writeText(staging, "manifest.json", JSON.stringify({ run: "two", base: staging.base, shards: [] }));
    await storage.root.deleteKeys((await storage.root.list(staging.base)).map((f) => storage.root.key(f.path)));
    await expect(staging.publish(["data", "manifest.json"])).rejects.toThrow(/The staging folder s3:\/\/\S+ of this job was deleted/);
    await staging.abort();
    expect(await storage.current()).toEqual(current);
    expect(await followManifest(storage)).toEqual({ run: "one", complete: true });
  });
});

describe("a crash at any step of a publish on S3", () => {
  const STEPS = ["staged", "pointer", "root:README.md", "root:manifest.json", "cleaned", "pruned"];

  it("publishes its steps in this order", async () => {
    const storage = fresh();
    await publishVersion(storage, "one");
    const seen: string[] = [];
    await publishVersion(storage, "two", { onStep: (step) => void seen.push(step) });
    expect(seen).toEqual([...STEPS, "done"]);
  });

  it.each(STEPS)("crash after %s: every reader sees one whole snapshot, and the next job finishes or cleans up", async (crashAt) => {
    const storage = fresh();
    await publishVersion(storage, "one");
    const seen: unknown[] = [];
    const crash = new Error(`crash after ${crashAt}`);
    await expect(
      publishVersion(storage, "two", {
        crash: true,
        onStep: (step) => {
          if (step === crashAt) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    // Readers right after the crash, before any other job ran.
    const committed = STEPS.indexOf(crashAt) >= STEPS.indexOf("pointer");
    const evalshardRun = (await readText(storage, "data/train-00000-of-00001.jsonl"))?.split(" ")[0];
    expect(evalshardRun).toBe(committed ? "two" : "one");
    const manifestRun = STEPS.indexOf(crashAt) >= STEPS.indexOf("root:manifest.json") ? "two" : "one";
    seen.push(await followManifest(storage));
    expect(seen).toEqual([{ run: manifestRun, complete: true }]);
    // The next job finishes the publish (or drops the dead run's folder).
    const next = await storage.stage();
    await next.abort();
    expect(await followManifest(storage)).toEqual({ run: committed ? "two" : "one", complete: true });
    const current = await storage.current();
    expect(await storage.root.folders("snapshots/")).toEqual(current?.history);
    expect((await objects(storage)).filter((p) => !p.startsWith("snapshots/"))).toEqual([".evalshard/current.json", "README.md", "manifest.json"]);
  });
});

describe("the lease lock on S3", () => {
  it("has one holder; the message names the holder and its lease", async () => {
    const storage = fresh();
    const lock = await storage.lock();
    await expect(storage.lock()).rejects.toThrow(LockedError);
    await expect(storage.lock()).rejects.toThrow(/process \d+ on host .* lease until/);
    await lock.release();
    await (await storage.lock()).release();
    expect(await objects(storage)).toEqual([]);
  });

  it("is renewed while its job lives", async () => {
    const storage = fresh({ leaseMs: 300 });
    const lock = await storage.lock();
    await new Promise((r) => setTimeout(r, 900));
    await expect(storage.lock()).rejects.toThrow(LockedError);
    await lock.release();
  });

  it("of a dead job (lease expired, whatever its pid or host) is taken over", async () => {
    const storage = fresh();
    const dead = { token: "dead", host: "pod-a", pid: 1, acquired: "2026-01-01T00:00:00.000Z", expires: new Date(Date.now() - 1000).toISOString() };
    await writeText(storage.root, ".evalshard/lock", JSON.stringify(dead));
    const lock = await storage.lock();
    await lock.release();
  });

  it("once taken over, is neither renewed nor deleted by the job that lost it", async () => {
    const storage = fresh({ leaseMs: 300 });
    const lock = (await storage.lock()) as Awaited<ReturnType<S3Storage["lock"]>> & { lost: boolean };
    const other = { token: "other", host: "h", pid: 2, acquired: new Date().toISOString(), expires: new Date(Date.now() + 60_000).toISOString() };
    await writeText(storage.root, ".evalshard/lock", JSON.stringify(other));
    await new Promise((r) => setTimeout(r, 400));
    expect(lock.lost).toBe(true);
    // As locally: the job learns it on release, and ends non-zero.
    await expect(lock.release()).rejects.toThrow(/taken over by another job while this one held it/);
    expect(JSON.parse((await readText(storage.root, ".evalshard/lock"))!)).toEqual(other);
  });

  it("s3rver ignores If-None-Match and If-Match on PUT (so the race between two takers is proven only on real S3)", async () => {
    const client = s3Client();
    const Key = `t/conditional-${counter++}`;
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: "first" }));
    // Real S3 answers 412 Precondition Failed to both.
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: "second", IfNoneMatch: "*" }));
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: "third", IfMatch: '"not-the-etag"' }));
    const body = await (await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key }))).Body!.transformToString();
    expect(body).toBe("third");
  });
});

describe("checksums", () => {
  it("plain bodies (WHEN_REQUIRED) are what make s3rver store a streamed upload as sent", async () => {
    const put = async (plainBodies: boolean) => {
      const Key = `t/checksum-${counter++}`;
      const Body = Readable.from([Buffer.from("hello, "), Buffer.from("object storage")]);
      await s3Client({ plainBodies }).send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body, ContentLength: 21 }));
      return (await s3Client().send(new GetObjectCommand({ Bucket: s3.bucket, Key }))).Body!.transformToString();
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
    const error = await withEnv({ AWS_SECRET_ACCESS_KEY: SECRET }, () => failure(new S3Storage(`s3://${s3.bucket}/x`, { endpoint: "http://127.0.0.1:9", maxAttempts: 1 })));
    expect(error).toBeInstanceOf(IoError);
    expect(error.message).toContain(`s3://${s3.bucket}/x`);
    expect(error.message).toContain("endpoint http://127.0.0.1:9");
    expect(error.message).toMatch(/ECONNREFUSED/);
    for (const form of forms(SECRET)) expect(shown(error)).not.toContain(form);
  });

  it("an endpoint with a password in it is shown without it", async () => {
    const error = await failure(new S3Storage(`s3://${s3.bucket}/x`, { endpoint: `http://user:${encodeURIComponent(SECRET)}@127.0.0.1:9`, maxAttempts: 1 }));
    expect(error.message).toContain("endpoint http://127.0.0.1:9");
    for (const form of forms(SECRET)) expect(shown(error)).not.toContain(form);
  });

  it("a missing bucket: a ConfigError saying so", async () => {
    const error = await failure(new S3Storage("s3://no-such-bucket/x"));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain("the bucket no-such-bucket does not exist");
    expect(error.message).toContain(`endpoint ${s3.endpoint}`);
  });

  // s3rver checks the access key id only (it does not verify SigV4 signatures), so a refused key stands
  // in for every denial here; a wrong secret is accepted by it (see the last test).
  it.each([
    ["an unknown key", { AWS_ACCESS_KEY_ID: "AKIAEVALSHARDUNKNOWN", AWS_SECRET_ACCESS_KEY: SECRET }],
    ["an unknown key with a session token", { AWS_ACCESS_KEY_ID: "AKIAEVALSHARDUNKNOWN", AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: `${SECRET}token` }],
  ])("denied credentials (%s): a ConfigError, no secret in any encoding", async (_case, env) => {
    const error = await withEnv(env, () => failure(new S3Storage(`s3://${s3.bucket}/denied`)));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`the credentials were refused for bucket ${s3.bucket}`);
    expect(error.message).toContain(`s3://${s3.bucket}/denied`);
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
    const storage = new S3Storage(`s3://${s3.bucket}/wrong-secret`);
    await withEnv({ AWS_SECRET_ACCESS_KEY: SECRET }, async () => (await storage.lock()).release());
  });
});
