import { createReadStream } from "node:fs";
import type { LineSource } from "./line-source.js";
import { readError, readingInput } from "./read-error.js";
import { splitLines } from "./split-lines.js";
import { spool, type Spool, type SpoolFile } from "./spool.js";

const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * A stream that can be read only once (stdin, a caller's lines, a pull), read as often as asked: the first read
 * copies it to a spool file in `dir` as it goes (see `spool`), later reads read that file. A read that starts
 * while the first is still under way waits until the stream is fully spooled.
 */
export class Rereadable {
  #spooled: Spool | undefined;

  constructor(
    /** Opened once, by the first read. */
    private readonly open: () => NodeJS.ReadableStream,
    private readonly dir: string,
  ) {}

  /** The stream's raw bytes, from its first byte. */
  async *read(): AsyncGenerator<Buffer> {
    if (this.#spooled === undefined) {
      this.#spooled = spool(this.open(), this.dir);
      yield* this.#spooled.chunks;
    } else {
      const { path } = await this.#spooled.done;
      for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })) yield chunk as Buffer;
    }
  }

  /** The whole stream spooled (read through first if no read has started): its file, size and sha256. */
  async file(): Promise<SpoolFile> {
    if (this.#spooled === undefined) for await (const _ of this.read());
    return (this.#spooled as Spool).done;
  }

  /**
   * The stream as an input named `name`: its bytes (the raw stream through `decode`), their lines, and the
   * raw stream's size and sha256; a failure is a read error naming the input.
   */
  source(name: string, decode: (raw: AsyncIterable<Buffer>) => AsyncIterable<Buffer> = (raw) => raw): LineSource {
    const bytes = () => readingInput(name, decode(this.read()));
    return {
      name,
      bytes,
      lines: (options) => readingInput(name, splitLines(bytes(), name, options)),
      info: async () => {
        try {
          const { bytes, sha256 } = await this.file();
          return { path: name, bytes, sha256 };
        } catch (err) {
          throw readError(name, err);
        }
      },
    };
  }
}
