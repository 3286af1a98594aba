import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { InputInfo, LineSource, ReadOptions, SourceLine } from "./line-source.js";
import { compressionFromName, decompress } from "./decompress.js";
import { readError } from "./read-error.js";
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

  async function* lines(options?: ReadOptions): AsyncGenerator<SourceLine> {
    try {
      yield* splitLines(decompress(readMeasured(path, remember), { name: path, compression }), path, options);
    } catch (err) {
      throw readError(path, err);
    }
  }

  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      yield* decompress(readMeasured(path, remember, BYTES_CHUNK_BYTES), { name: path, compression });
    } catch (err) {
      throw readError(path, err);
    }
  }

  return {
    name: path,
    lines,
    bytes,
    async info() {
      if (measured === undefined) {
        try {
          for await (const _ of readMeasured(path, remember));
        } catch (err) {
          throw readError(path, err);
        }
      }
      return measured as InputInfo;
    },
  };
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
