import { randomBytes } from "node:crypto";
import { constants, zstdCompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decompress } from "../../src/sources/decompress.js";
import { ZstdFrameEnds } from "../../src/sources/zstd-frame-ends.js";

const { ZSTD_c_checksumFlag, ZSTD_c_contentSizeFlag } = constants;
const text = Buffer.from(Array.from({ length: 3000 }, (_, i) => `{"run_id":"run-${i}","note":"${"x".repeat(i % 50)}"}\n`).join(""));
// Frames of every block kind and header shape: compressed, raw (random bytes over 128 KiB: several blocks), RLE,
// with and without content size and checksum, an empty frame, and a skippable frame between them.
const parts: Buffer[] = [
  text,
  randomBytes(300_000),
  Buffer.alloc(200_000, 0x61),
  Buffer.alloc(0),
  text.subarray(0, 777),
];
const frames = [
  zstdCompressSync(parts[0]!),
  zstdCompressSync(parts[1]!, { params: { [ZSTD_c_checksumFlag]: 1 } }),
  zstdCompressSync(parts[2]!, { params: { [ZSTD_c_contentSizeFlag]: 0 } }),
  zstdCompressSync(parts[3]!),
  skippable(Buffer.from("metadata a decoder skips")),
  zstdCompressSync(parts[4]!, { params: { [ZSTD_c_checksumFlag]: 1, [ZSTD_c_contentSizeFlag]: 0 } }),
];
const stream = Buffer.concat(frames);
const frameEnds = frames.map((_, i) => frames.slice(0, i + 1).reduce((n, f) => n + f.length, 0));

function skippable(body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(0x184d2a53, 0);
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

function endsOf(chunks: Buffer[]): number[] {
  const scanner = new ZstdFrameEnds();
  let offset = 0;
  const ends: number[] = [];
  for (const chunk of chunks) {
    ends.push(...scanner.ends(chunk).map((end) => offset + end));
    offset += chunk.length;
  }
  return ends;
}

function chunks(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

describe("where zstd frames end, from their headers", () => {
  it("finds every frame's end, however the bytes are cut", () => {
    for (const size of [1, 3, 4096, stream.length]) expect(endsOf(chunks(stream, size)), `chunks of ${size}`).toEqual(frameEnds);
  });

  it("stops at bytes that are not a frame, leaving them to the decoder", () => {
    expect(endsOf([Buffer.concat([frames[0]!, Buffer.from("not zstd at all"), frames[0]!])])).toEqual([frames[0]!.length]);
  });
});

describe("a stream that is not whole frames fails, whatever the Node's decoder says", () => {
  it("names a stream cut inside a frame, or bytes that are not a frame", async () => {
    for (const [bytes, message] of [
      [stream.subarray(0, frameEnds[1]! + 5), /Cannot decompress input "cut.zst" as zstd/],
      [Buffer.concat([frames[0]!, Buffer.from("not zstd at all")]), /Cannot decompress input "cut.zst" as zstd/],
    ] as const) {
      async function* source(): AsyncGenerator<Buffer> {
        yield bytes;
      }
      const read = async () => {
        for await (const _ of decompress(source(), { name: "cut.zst" })) void _;
      };
      await expect(read()).rejects.toThrow(message);
    }
  });
});

describe("a stream of several frames decompresses whole", () => {
  it("yields every frame's bytes in order", async () => {
    async function* source(): AsyncGenerator<Buffer> {
      yield* chunks(stream, 65_536);
    }
    const out: Buffer[] = [];
    for await (const chunk of decompress(source(), { name: "frames.zst" })) out.push(chunk);
    expect(Buffer.concat(out).equals(Buffer.concat(parts))).toBe(true);
  });
});
