import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LockedError } from "../../src/core/errors.js";
import { LocalStorage } from "../../src/output/local-storage.js";
import { MemoryObjectStore } from "../../src/output/memory-object-store.js";
import { ObjectStorage } from "../../src/output/object-storage.js";
import { S3Storage } from "../../src/output/s3-storage.js";
import type { Files, Storage } from "../../src/output/storage.js";
import { readText, writeText } from "../../src/output/write-text.js";
import { startS3rver, useS3rverEnvironment } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { tempDir } from "../helpers/temp-dir.js";

const root = tempDir("evalshard-storage-");
let counter = 0;

// A real S3 REST server on loopback, reached through the SDK's default chain (environment variables).
let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3rver();
  useS3rverEnvironment(s3);
});
afterAll(() => s3?.stop());

/** Every Storage implementation runs these. */
const STORAGES: readonly (readonly [string, () => Storage])[] = [
  ["local", () => new LocalStorage(join(root, `s-${counter++}`))],
  ["S3", () => new S3Storage(`s3://${s3.bucket}/contract/s-${counter++}`)],
  // Object storage over any store: another cloud's adapter is tested by adding its line here.
  ["in-memory object", () => new ObjectStorage(new MemoryObjectStore(`s-${counter++}`))],
];

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const paths = async (files: Files, prefix: string) => (await files.list(prefix)).map((f) => f.path).sort();

describe.each(STORAGES)("the %s storage", (_name, make) => {
  describe("a file", () => {
    it("is written in pieces, hashed as written, and read back whole", async () => {
      const storage = make();
      const parts = [Buffer.from("PAR1"), Buffer.alloc(100_000, 7), Buffer.from("end")];
      const file = await storage.create("data/x.bin");
      for (const part of parts) await file.write(part);
      expect(file.bytes).toBe(100_007);
      const written = await file.close();
      expect(written).toEqual({ bytes: 100_007, sha256: sha256(Buffer.concat(parts)) });
      const chunks: Uint8Array[] = [];
      for await (const chunk of (await storage.read("data/x.bin"))!) chunks.push(chunk);
      expect(Buffer.concat(chunks)).toEqual(Buffer.concat(parts));
    });

    it("aborted leaves nothing; a missing file reads as null", async () => {
      const storage = make();
      const file = await storage.create("data/gone.bin");
      await file.write(Buffer.from("x"));
      await file.abort();
      expect(await storage.read("data/gone.bin")).toBeNull();
      expect(await paths(storage, "data/")).toEqual([]);
    });
  });

  it("lists by prefix with sizes, renames and removes", async () => {
    const storage = make();
    await writeText(storage, "data/a.txt", "aa");
    await writeText(storage, "data/b.txt", "bbb");
    await writeText(storage, "README.md", "card");
    expect((await storage.list("data/")).sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { path: "data/a.txt", bytes: 2 },
      { path: "data/b.txt", bytes: 3 },
    ]);
    expect(await paths(storage, "data/b")).toEqual(["data/b.txt"]);
    await storage.rename("data/a.txt", "data/c.txt");
    expect(await readText(storage, "data/c.txt")).toBe("aa");
    await storage.remove("data/b.txt");
    await storage.remove("data/none.txt");
    expect(await paths(storage, "data/")).toEqual(["data/c.txt"]);
  });

  it("refuses paths that leave its root", async () => {
    const storage = make();
    await expect(storage.create("../x")).rejects.toThrow(/relative/);
    await expect(storage.create("data//x")).rejects.toThrow(/relative/);
  });

  it("has one writer at a time", async () => {
    const storage = make();
    const lock = await storage.lock();
    await expect(storage.lock()).rejects.toThrow(LockedError);
    await lock.release();
    await (await storage.lock()).release();
  });

  describe("a staging", () => {
    it("is invisible until published, then replaces the listed entries whole", async () => {
      const storage = make();
      await writeText(storage, "data/old.txt", "old");
      await writeText(storage, "manifest.json", "1");
      const staging = await storage.stage();
      await writeText(staging, "data/new.txt", "new");
      await writeText(staging, "manifest.json", "2");
      expect(await paths(storage, "data/")).toEqual(["data/old.txt"]);
      await staging.publish(["data", "_quarantine/", "manifest.json"]);
      expect(await paths(storage, "data/")).toEqual(["data/new.txt"]);
      expect(await readText(storage, "manifest.json")).toBe("2");
    });

    it("reuses a published file without rewriting it, and abort leaves the dataset as it was", async () => {
      const storage = make();
      await writeText(storage, "data/keep.txt", "kept");
      const staging = await storage.stage();
      await staging.reuse("data/keep.txt");
      expect(await readText(staging, "data/keep.txt")).toBe("kept");
      await staging.abort();
      expect(await paths(storage, "data/")).toEqual(["data/keep.txt"]);
      const again = await storage.stage();
      await again.reuse("data/keep.txt");
      await again.publish(["data"]);
      expect(await readText(storage, "data/keep.txt")).toBe("kept");
    });
  });
});
