import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IoError } from "../../src/core/errors.js";
import { LocalFileWriter } from "../../src/output/local-file-writer.js";
import { PendingFlushes } from "../../src/output/pending-flushes.js";
import { tempDir } from "../helpers/temp-dir.js";

const root = tempDir("evalshard-flushes-");

describe("pending flushes", () => {
  it("settle waits for every flush added, and leaves none behind", async () => {
    const flushes = new PendingFlushes();
    const done: number[] = [];
    for (const ms of [30, 10, 20]) flushes.add(new Promise<void>((resolve) => setTimeout(() => resolve(void done.push(ms)), ms)));
    await flushes.settle();
    expect(done.sort()).toEqual([10, 20, 30]);
    await flushes.settle();
  });

  it("a failed flush is reported by settle, once every other flush is done", async () => {
    const flushes = new PendingFlushes();
    let slowDone = false;
    flushes.add(Promise.reject(new IoError("Cannot write a: disk gone", "a")));
    flushes.add(new Promise<void>((resolve) => setTimeout(() => resolve(void (slowDone = true)), 20)));
    await expect(flushes.settle()).rejects.toThrow("disk gone");
    expect(slowDone).toBe(true);
  });

  it("a failure is kept until settle, even when it comes first", async () => {
    const flushes = new PendingFlushes();
    flushes.add(Promise.reject(new Error("early")));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(flushes.settle()).rejects.toThrow("early");
  });
});

describe("a local file writer given pending flushes", () => {
  it("is complete and hashed at close, and its sync settles with the flushes", async () => {
    const flushes = new PendingFlushes();
    const path = join(root, "a.txt");
    const file = await LocalFileWriter.create(path, flushes);
    await file.write(Buffer.from("rows\n"));
    const written = await file.close();
    expect(written).toEqual({ bytes: 5, sha256: createHash("sha256").update("rows\n").digest("hex") });
    expect(readFileSync(path, "utf8")).toBe("rows\n");
    await flushes.settle();
  });
});
