import { pipeline, type Transform } from "node:stream";
import { createGunzip } from "node:zlib";
import { EvalshardError, IoError } from "../core/errors.js";
import { ZstdFramesDecompress } from "./zstd-frames-decompress.js";

/** How an input's bytes are stored. */
export type Compression = "gzip" | "zstd" | "none";

/** Compression named by a file's extension, or undefined when the name does not say. */
export function compressionFromName(path: string): Compression | undefined {
  if (path.endsWith(".gz")) return "gzip";
  if (path.endsWith(".zst")) return "zstd";
  return undefined;
}

/** Compression recognised from the first bytes of an input (at least 4 of them, unless it is shorter). */
export function sniffCompression(head: Uint8Array): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return "zstd";
  return "none";
}

/** What `decompress` needs to know about its input. */
export interface DecompressOptions {
  /** The input as the user named it, for error messages. */
  readonly name: string;
  /** Known compression; when absent, the first bytes decide. */
  readonly compression?: Compression | undefined;
}

/**
 * Decompresses a stream of raw bytes: gzip (including several concatenated members), zstd (also several frames), or none.
 * A corrupt or truncated stream throws an `IoError` naming the input; an error of `chunks` itself
 * is passed through unchanged.
 */
export async function* decompress(chunks: AsyncIterable<Buffer>, options: DecompressOptions): AsyncIterable<Buffer> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let compression = options.compression;
  if (compression === undefined) {
    let bytes = 0;
    while (bytes < 4) {
      const next = await iterator.next();
      if (next.done === true) break;
      head.push(next.value);
      bytes += next.value.length;
    }
    compression = sniffCompression(Buffer.concat(head, bytes));
  }

  // Errors of the raw stream must not be blamed on the decompressor: remember which side failed.
  let sourceFailed = false;
  const raw = async function* (): AsyncGenerator<Buffer> {
    try {
      yield* head;
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
    } catch (err) {
      sourceFailed = true;
      throw err;
    } finally {
      await iterator.return?.();
    }
  };

  if (compression === "none") {
    yield* raw();
    return;
  }
  const decoder: Transform = compression === "gzip" ? createGunzip({ chunkSize: 256 * 1024 }) : new ZstdFramesDecompress(256 * 1024);
  // Failures reach us through the iteration below; the callback only keeps them from going unhandled.
  pipeline(raw(), decoder, () => {});
  try {
    for await (const chunk of decoder) yield chunk as Buffer;
  } catch (err) {
    if (sourceFailed || err instanceof EvalshardError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new IoError(`Cannot decompress input "${options.name}" as ${compression}: ${message}`, options.name, {
      cause: err,
    });
  }
}
