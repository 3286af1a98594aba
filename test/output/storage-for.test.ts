import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { LocalStorage } from "../../src/output/local-storage.js";
import { S3Storage } from "../../src/output/s3-storage.js";
import { outputLocation } from "../../src/output/output-location.js";
import { storageFor } from "../../src/output/storage-for.js";

describe("storageFor", () => {
  it("gives an S3 storage for s3://BUCKET/PREFIX, with the prefix as its location", async () => {
    const storage = await storageFor("s3://my-bucket/datasets/sft/", { region: "us-east-1" });
    expect(storage).toBeInstanceOf(S3Storage);
    expect(storage.location).toBe("s3://my-bucket/datasets/sft");
    expect((await storageFor("s3://my-bucket", { region: "us-east-1" })).location).toBe("s3://my-bucket");
  });

  // "./" makes any name a path, even one that starts like a URL.
  it.each(["out/sft", "/tmp/x", "./s3:/bucket", "C:\\data\\sft", "D:/data", "./gs://b"])("gives a local storage for the path %s", async (path) => {
    expect(await storageFor(path)).toBeInstanceOf(LocalStorage);
    expect(outputLocation(path)).toEqual({ kind: "local", path });
  });

  it.each([
    ["gs://bucket/x", "gs"],
    ["hf://datasets/me/x", "hf"],
    ["s3:/bucket/x", "s3"],
    ["S3://bucket/x", "S3"],
    ["file:///tmp/x", "file"],
    ["https://example.com/x", "https"],
    ["s3a://bucket/x", "s3a"],
    ["data:set", "data"],
  ])("refuses %s as a usage error naming the scheme, never a local folder", async (location, scheme) => {
    await expect(storageFor(location)).rejects.toThrow(ConfigError);
    let error: unknown;
    try {
      outputLocation(location);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`scheme "${scheme}:"`);
    expect((error as Error).message).toContain(JSON.stringify(location));
  });

  it.each(["s3://", "s3://UPPER/x", "s3://b/x", "s3://bucket//x", "s3://bucket/a/../b"])("refuses the malformed S3 location %s without any request", async (location) => {
    expect(() => outputLocation(location)).toThrow(ConfigError);
    await expect(storageFor(location)).rejects.toThrow(ConfigError);
  });

  it("refuses an empty location", () => {
    expect(() => outputLocation("")).toThrow(ConfigError);
  });
});
