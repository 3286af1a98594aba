import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type { InputInfo, LineSource } from "./line-source.js";
import { compressionFromName, decompress, sniffCompression } from "./decompress.js";
import type { Compression } from "./decompress.js";
import { readingInput } from "./read-error.js";
import { splitLines } from "./split-lines.js";

const READ_CHUNK_BYTES = 1024 * 1024;
/** Larger reads for the parallel engine, whose workers take batches of several MiB. */
const BYTES_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * A file input, plain or compressed. The extension picks the decompressor (`.gz`, `.zst`); any other
 * name is sniffed by its first bytes. A full read also measures the raw file, so `info()` after it
 * costs nothing.
 *
 * @param path the path as the user gave it; also the lines' `provenance.source`
 */
export function fileSource(path: string): LineSource {
  const compression = compressionFromName(path);
  let measured: InputInfo | undefined;
  const remember = (info: InputInfo): void => {
    measured = info;
  };

  async function* bytes(memory?: () => Uint8Array | null): AsyncGenerator<Buffer> {
    const stored = compression ?? (await sniffFile(path));
    if (stored === "none") yield* readReusing(path, remember, BYTES_CHUNK_BYTES, memory);
    else yield* decompress(readMeasured(path, remember, BYTES_CHUNK_BYTES), { name: path, compression: stored });
  }

  return {
    name: path,
    lines: (options) => readingInput(path, splitLines(decompress(readMeasured(path, remember), { name: path, compression }), path, options)),
    bytes: (memory) => readingInput(path, bytes(memory)),
    async info() {
      if (measured === undefined) for await (const _ of readingInput(path, readMeasured(path, remember)));
      return measured as InputInfo;
    },
  };
}

/** How the file is stored, from its first bytes. */
async function sniffFile(path: string): Promise<Compression> {
  const file = await open(path, "r");
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    return sniffCompression(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

/**
 * A plain file's bytes read into the caller's memory when it offers some, else into one buffer, reused:
 * each chunk is valid only until the next is asked for. Fresh memory per read would cost a page fault per
 * 4 KiB. Hands the size and sha256 to `done` at the end.
 */
async function* readReusing(path: string, done: (info: InputInfo) => void, chunkBytes: number, memory?: () => Uint8Array | null): AsyncGenerator<Buffer> {
  const file = await open(path, "r");
  try {
    const hash = createHash("sha256");
    let own: Buffer | null = null;
    let bytes = 0;
    for (;;) {
      const offered = memory?.() ?? null;
      const into = offered ?? (own ??= Buffer.allocUnsafeSlow(chunkBytes));
      const { bytesRead } = await file.read(into, 0, Math.min(into.length, chunkBytes), null);
      if (bytesRead === 0) break;
      const chunk = Buffer.from(into.buffer, into.byteOffset, bytesRead);
      hash.update(chunk);
      bytes += bytesRead;
      yield chunk;
    }
    done({ path, bytes, sha256: hash.digest("hex") });
  } finally {
    await file.close();
  }
}

/** The file's raw bytes; once they have all gone by, hands their size and sha256 to `done`. */
async function* readMeasured(path: string, done: (info: InputInfo) => void, chunkBytes = READ_CHUNK_BYTES): AsyncGenerator<Buffer> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes })) {
    const buf = chunk as Buffer;
    hash.update(buf);
    bytes += buf.length;
    yield buf;
  }
  done({ path, bytes, sha256: hash.digest("hex") });
}
