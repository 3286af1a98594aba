import { gzipSync, zstdCompressSync as compress } from "node:zlib";
import { describe, expect, it } from "vitest";
import { IoError } from "../../src/core/errors.js";
import { compressionFromName, decompress, sniffCompression } from "../../src/sources/decompress.js";

const text = Array.from({ length: 200 }, (_, i) => `{"run_id":"run-${i}"}\n`).join("");
const plain = Buffer.from(text);

async function* chunked(buf: Buffer, size = 7): AsyncGenerator<Buffer> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

describe("the extension names the compression", () => {
  it("maps .gz and .zst, and nothing else", () => {
    expect(compressionFromName("a/b.ndjson.gz")).toBe("gzip");
    expect(compressionFromName("b.jsonl.zst")).toBe("zstd");
    expect(compressionFromName("b.ndjson")).toBeUndefined();
    expect(compressionFromName("b.gzip")).toBeUndefined();
  });
});

describe("magic bytes name the compression when the name does not", () => {
  it("recognises gzip and zstd, and takes anything else as plain", () => {
    expect(sniffCompression(gzipSync(plain).subarray(0, 4))).toBe("gzip");
    expect(sniffCompression(compress(plain).subarray(0, 4))).toBe("zstd");
    expect(sniffCompression(Buffer.from("{}"))).toBe("none");
    expect(sniffCompression(Buffer.alloc(0))).toBe("none");
    expect(sniffCompression(Buffer.from([0x28, 0xb5, 0x2f]))).toBe("none");
  });

  it("sniffs magic bytes spread over one-byte chunks", async () => {
    expect(await collect(decompress(chunked(compress(plain), 1), { name: "-" }))).toEqual(plain);
    expect(await collect(decompress(chunked(gzipSync(plain), 1), { name: "-" }))).toEqual(plain);
    expect(await collect(decompress(chunked(plain, 1), { name: "-" }))).toEqual(plain);
  });

  it("passes an input shorter than the magic bytes through", async () => {
    expect(await collect(decompress(chunked(Buffer.from("{}")), { name: "-" }))).toEqual(Buffer.from("{}"));
    expect(await collect(decompress(chunked(Buffer.alloc(0)), { name: "-" }))).toEqual(Buffer.alloc(0));
  });
});

describe("gzip is decompressed, including several members back to back", () => {
  it("decompresses one member", async () => {
    expect(await collect(decompress(chunked(gzipSync(plain)), { name: "a.gz", compression: "gzip" }))).toEqual(plain);
  });

  it("decompresses concatenated members", async () => {
    const members = Buffer.concat([gzipSync(plain.subarray(0, 1000)), gzipSync(plain.subarray(1000))]);
    expect(await collect(decompress(chunked(members), { name: "a.gz", compression: "gzip" }))).toEqual(plain);
  });
});

describe("zstd is decompressed, including several frames back to back", () => {
  it("decompresses one frame", async () => {
    expect(await collect(decompress(chunked(compress(plain)), { name: "a.zst", compression: "zstd" }))).toEqual(plain);
  });

  it("decompresses concatenated frames", async () => {
    const frames = Buffer.concat([compress(plain.subarray(0, 1000)), compress(plain.subarray(1000))]);
    expect(await collect(decompress(chunked(frames), { name: "a.zst", compression: "zstd" }))).toEqual(plain);
  });
});

describe("a corrupt stream is an IoError naming the input", () => {
  it("reports garbage given as gzip", async () => {
    const err = await collect(decompress(chunked(plain), { name: "bad.ndjson.gz", compression: "gzip" })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(IoError);
    expect((err as IoError).path).toBe("bad.ndjson.gz");
    expect((err as IoError).message).toMatch(/^Cannot decompress input "bad.ndjson.gz" as gzip: /);
  });

  it("reports a truncated gzip stream", async () => {
    const gz = gzipSync(plain);
    await expect(collect(decompress(chunked(gz.subarray(0, gz.length - 10)), { name: "t.gz" }))).rejects.toThrow(
      /Cannot decompress input "t.gz" as gzip/,
    );
  });

  it("reports a truncated zstd stream", async () => {
    const zst = compress(plain);
    await expect(collect(decompress(chunked(zst.subarray(0, zst.length - 10)), { name: "t.zst" }))).rejects.toThrow(
      /Cannot decompress input "t.zst" as zstd/,
    );
  });

  it("reports corrupt zstd data", async () => {
    const zst = Buffer.from(compress(plain));
    zst.fill(0xff, 8, 40);
    await expect(collect(decompress(chunked(zst), { name: "c.zst" }))).rejects.toThrow(IoError);
  });
});

describe("a failure of the raw stream itself is passed through unchanged", () => {
  it("does not blame the decompressor", async () => {
    const failure = new Error("disk on fire");
    async function* failing(): AsyncGenerator<Buffer> {
      yield gzipSync(plain).subarray(0, 20);
      throw failure;
    }
    await expect(collect(decompress(failing(), { name: "a.gz", compression: "gzip" }))).rejects.toBe(failure);
    await expect(collect(decompress(failing(), { name: "a" }))).rejects.toBe(failure);
  });
});

describe("a reader that stops early releases the raw stream", () => {
  it("closes the raw iterator", async () => {
    let closed = false;
    async function* raw(): AsyncGenerator<Buffer> {
      try {
        yield* chunked(gzipSync(Buffer.concat(Array.from({ length: 200 }, () => plain))), 4096);
      } finally {
        closed = true;
      }
    }
    for await (const _ of decompress(raw(), { name: "a.gz", compression: "gzip" })) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(true);
  });
});
