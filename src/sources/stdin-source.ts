import { createReadStream } from "node:fs";
import type { LineSource, ReadOptions, SourceLine } from "./line-source.js";
import { decompress } from "./decompress.js";
import { readError } from "./read-error.js";
import { spool, type Spool } from "./spool.js";
import { splitLines } from "./split-lines.js";

const NAME = "-";
const READ_CHUNK_BYTES = 1024 * 1024;

/** Where stdin is spooled, and which stream stands for stdin. */
export interface StdinOptions {
  /** Where to spool the raw input so it can be read again; the caller owns it and removes it. */
  readonly spoolDir: string;
  /** The stream to read; defaults to `process.stdin`. */
  readonly stdin?: NodeJS.ReadableStream | undefined;
}

/**
 * Standard input as a source named "-". Stdin can be read only once, so the first read copies its raw
 * bytes to a spool file while yielding lines, and later reads (and `info()`) use that file. Gzip and
 * zstd are recognised by their first bytes.
 *
 * A read that starts while the first one is still under way waits until stdin is fully spooled.
 */
export function stdinSource(options: StdinOptions): LineSource {
  const stdin = options.stdin ?? process.stdin;
  let spooled: Spool | undefined;

  /** The raw bytes: the first reader to get here spools stdin, later ones read the spool file. */
  async function* raw(): AsyncGenerator<Buffer> {
    if (spooled === undefined) {
      spooled = spool(stdin, options.spoolDir);
      yield* spooled.chunks;
    } else {
      const { path } = await spooled.done;
      for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })) yield chunk as Buffer;
    }
  }

  async function* lines(readOptions?: ReadOptions): AsyncGenerator<SourceLine> {
    try {
      yield* splitLines(decompress(raw(), { name: NAME }), NAME, readOptions);
    } catch (err) {
      throw readError(NAME, err);
    }
  }

  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      yield* decompress(raw(), { name: NAME });
    } catch (err) {
      throw readError(NAME, err);
    }
  }

  return {
    name: NAME,
    lines,
    bytes,
    async info() {
      try {
        if (spooled === undefined) for await (const _ of raw());
        const { bytes, sha256 } = await (spooled as Spool).done;
        return { path: NAME, bytes, sha256 };
      } catch (err) {
        throw readError(NAME, err);
      }
    },
  };
}
